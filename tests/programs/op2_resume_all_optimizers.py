# Checkpoint/resume check for every optimizer: train 3 steps, torch.save the optimizer
# state_dict to a buffer, rebuild model+optimizer, load, continue, and compare with uninterrupted run.
import io
import torch
import torch.nn as nn

def model_fn():
    m = nn.Linear(4, 2)
    with torch.no_grad():
        m.weight.copy_(torch.arange(8, dtype=torch.float32).reshape(2, 4).cos() * 0.3)
        m.bias.copy_(torch.tensor([0.1, -0.3]))
    return m

x = torch.linspace(-1, 1, 20).reshape(5, 4)
y = torch.stack([x.sum(1), x[:, 0] - x[:, 3]], 1)

def train(model, opt, n):
    for _ in range(n):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    return loss.item()

specs = [
    (torch.optim.SGD, dict(lr=0.05, momentum=0.9, nesterov=True)),
    (torch.optim.Adam, dict(lr=0.05, amsgrad=True)),
    (torch.optim.AdamW, dict(lr=0.05, weight_decay=0.1)),
    (torch.optim.NAdam, dict(lr=0.05, decoupled_weight_decay=True, weight_decay=0.01)),
    (torch.optim.RAdam, dict(lr=0.05)),
    (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01)),
    (torch.optim.Adadelta, dict(lr=1.0, rho=0.8)),
    (torch.optim.Adamax, dict(lr=0.05)),
    (torch.optim.RMSprop, dict(lr=0.01, centered=True, momentum=0.5)),
    (torch.optim.Rprop, dict(lr=0.01)),
    (torch.optim.ASGD, dict(lr=0.05, t0=2)),
]
for cls, kw in specs:
    ref_model = model_fn()
    ref_opt = cls(ref_model.parameters(), **kw)
    train(ref_model, ref_opt, 6)

    m1 = model_fn()
    o1 = cls(m1.parameters(), **kw)
    train(m1, o1, 3)
    buf = io.BytesIO()
    torch.save({"model": m1.state_dict(), "optim": o1.state_dict()}, buf)
    buf.seek(0)
    ckpt = torch.load(buf)
    m2 = model_fn()
    o2 = cls(m2.parameters(), **kw)
    m2.load_state_dict(ckpt["model"])
    o2.load_state_dict(ckpt["optim"])
    s0 = o2.state[m2.weight]
    steps = {k: v for k, v in s0.items() if k == "step"}
    loss = train(m2, o2, 3)
    same = all(torch.equal(a, b) for a, b in zip(ref_model.parameters(), m2.parameters()))
    print(f"{cls.__name__:9s} loss {loss:.5f} identical={same} keys={sorted(s0)} step={steps.get('step')}")
    print("   bias", [round(v, 5) for v in m2.bias.detach().tolist()])
    g = o2.param_groups[0]
    print("   group lr", g["lr"], "initial_lr" in g, len(g["params"]))

# loading into an optimizer with a different layout
o = torch.optim.Adam(model_fn().parameters(), lr=0.1)
sd = torch.optim.Adam([nn.Parameter(torch.zeros(3))], lr=0.1).state_dict()
try:
    o.load_state_dict(sd)
except ValueError as e:
    print("ValueError", e)
sd2 = torch.optim.Adam([{"params": [nn.Parameter(torch.zeros(2, 4))]}, {"params": [nn.Parameter(torch.zeros(2))]}]).state_dict()
try:
    o.load_state_dict(sd2)
except ValueError as e:
    print("ValueError", e)
