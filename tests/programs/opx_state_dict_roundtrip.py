# Checkpointing optimizer state the way training scripts do: torch.save(opt.state_dict()) to a buffer,
# inspect state keys/steps per optimizer type, load into a fresh optimizer and resume identically.
import io

import torch
import torch.nn as nn


def make_model():
    m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) + 0.5 * i).view_as(p))
    return m


x = torch.stack([torch.linspace(-1, 1, 10), torch.linspace(0, 2, 10) ** 2, torch.sin(torch.arange(10.0))], 1)
y = torch.stack([x[:, 0] * 2 - x[:, 2], x[:, 1] - 1], 1)


def run(model, opt, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


factories = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True),
    "AdamW": lambda p: torch.optim.AdamW(p, lr=0.01),
    "RMSprop": lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1),
    "Adadelta": lambda p: torch.optim.Adadelta(p),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.01),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.01),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.01),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.01),
    "Rprop": lambda p: torch.optim.Rprop(p, lr=0.01),
}
for name, factory in factories.items():
    model = make_model()
    opt = factory(model.parameters())
    run(model, opt, 5)
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, buf)
    size_ok = buf.tell() > 0
    buf.seek(0)
    ckpt = torch.load(buf)
    sd = ckpt["optimizer"]
    st0 = sd["state"][0]
    step = st0.get("step")
    step_repr = f"{type(step).__name__}:{step.item() if isinstance(step, torch.Tensor) else step}"
    print(f"{name:9s}", sorted(st0.keys()), step_repr,
          getattr(step, "dtype", None), sorted(k for k in sd["param_groups"][0].keys() if k != "params"))

    # resume: continue original vs. fresh copy loaded from the checkpoint
    model2 = make_model()
    model2.load_state_dict(ckpt["model"])
    opt2 = factory(model2.parameters())
    opt2.load_state_dict(ckpt["optimizer"])
    a = run(model, opt, 3)
    b = run(model2, opt2, 3)
    same = all(torch.equal(p, q) for p, q in zip(model.parameters(), model2.parameters()))
    print(f"{name:9s}", size_ok, f"{a:.5f}", f"{b:.5f}", same)

# state dict of a fresh optimizer, and changing hyper-parameters through a loaded state dict
model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
print(opt.state_dict()["state"], opt.state_dict()["param_groups"][0]["params"])
sd = opt.state_dict()
sd["param_groups"][0]["lr"] = 0.5
opt.load_state_dict(sd)
print(opt.param_groups[0]["lr"], sd is not opt.state_dict())
