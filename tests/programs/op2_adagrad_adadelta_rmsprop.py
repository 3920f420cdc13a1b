# Adagrad (lr_decay, initial_accumulator_value), Adadelta (rho), RMSprop (centered, momentum):
# classic adaptive optimizers a user tries on a small MLP, printing losses and state buffers.
import torch
import torch.nn as nn

def make_model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            n = p.numel()
            p.copy_((torch.arange(n, dtype=torch.float32) * 0.37 + i).sin().reshape(p.shape) * 0.5)
    return m

t = torch.linspace(0, 1, 10)
x = torch.stack([t, 1 - t * t], 1)
y = (x[:, :1] * 3).sin()

runs = [
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1, initial_accumulator_value=0.5)),
    ("Adagrad", dict(lr=0.1, weight_decay=0.01, eps=1e-5)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.5, weight_decay=0.01)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, centered=True)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.001)),
    ("RMSprop", dict(lr=0.01, momentum=0.5, maximize=True)),
]
for name, kw in runs:
    model = make_model()
    opt = getattr(torch.optim, name)(model.parameters(), **kw)
    for step in range(10):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        if step % 3 == 0:
            print(f"{name} {kw} step {step} loss {loss.item():.5f}")
    last = list(model.parameters())[-1]
    st = opt.state[last]
    print("  state keys", sorted(st.keys()))
    for k in sorted(st):
        v = st[k]
        print(f"  {k}", v if k == "step" else [round(x_, 5) for x_ in v.flatten().tolist()])
    print("  out bias", round(last.item(), 5))

print(torch.optim.Adagrad(make_model().parameters(), lr_decay=0.01, initial_accumulator_value=0.1))
print(torch.optim.RMSprop(make_model().parameters(), centered=True, momentum=0.9))
for cls, kw in [(torch.optim.Adagrad, dict(lr_decay=-0.1)), (torch.optim.Adagrad, dict(initial_accumulator_value=-1)),
                (torch.optim.Adadelta, dict(rho=1.5)), (torch.optim.RMSprop, dict(alpha=-0.1)),
                (torch.optim.RMSprop, dict(momentum=-0.1))]:
    try:
        cls(make_model().parameters(), **kw)
    except ValueError as e:
        print(cls.__name__, "ValueError:", e)
