# Optimizer variants on a fixed least-squares problem, with the per-parameter state each one
# keeps: SGD (dampening, nesterov, maximize), Adam(amsgrad), AdamW(amsgrad, maximize),
# RMSprop(centered, momentum), Adagrad(lr_decay, initial_accumulator_value).
import io

import torch

X = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]])
y = torch.tensor([1.0, 0.0, 2.0, -1.0])


def run(name, make, steps=4):
    w = torch.nn.Parameter(torch.tensor([0.3, -0.2]))
    b = torch.nn.Parameter(torch.tensor(0.1))
    opt = make([w, b])
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((X @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    print(name, losses)
    print("  w", w.data, "b", b.data)
    st = opt.state[w]
    for k in sorted(st):
        v = st[k]
        print("  ", k, v.dtype if torch.is_tensor(v) else type(v).__name__, v)
    return opt


run("sgd damp", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.5))
run("sgd nesterov", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1))
run("sgd maximize", lambda p: torch.optim.SGD(p, lr=0.01, maximize=True))
run("sgd plain", lambda p: torch.optim.SGD(p, lr=0.05))
run("adam amsgrad", lambda p: torch.optim.Adam(p, lr=0.1, amsgrad=True, weight_decay=0.01))
run("adamw amsgrad max", lambda p: torch.optim.AdamW(p, lr=0.1, amsgrad=True, maximize=True))
run("rmsprop centered", lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.9))
run("rmsprop wd", lambda p: torch.optim.RMSprop(p, lr=0.01, weight_decay=0.1))
opt = run("adagrad", lambda p: torch.optim.Adagrad(p, lr=0.5, lr_decay=0.1, initial_accumulator_value=0.1))

# Save optimizer state in memory and restore into a fresh optimizer.
buf = io.BytesIO()
torch.save(opt.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sorted(sd.keys()), sorted(sd["state"].keys()))
print(sorted(sd["state"][0].keys()), sd["state"][1]["sum"])
print(sd["param_groups"][0]["params"], sd["param_groups"][0]["lr_decay"])

w2 = torch.nn.Parameter(torch.zeros(2))
b2 = torch.nn.Parameter(torch.zeros(()))
opt2 = torch.optim.Adagrad([w2, b2], lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["lr_decay"], opt2.state[w2]["step"], opt2.state[b2]["sum"])

bad = torch.optim.Adagrad([w2], lr=0.5)
try:
    bad.load_state_dict(sd)
except ValueError as e:
    print(type(e).__name__, e)
