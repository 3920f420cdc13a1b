# Reproducibility test: two identical training runs must give identical model and optimizer
# state_dicts (assert_close over nested dicts with ints, floats, bools, None, tuples and tensors).
import copy
import torch
import torch.nn as nn
from torch.testing import assert_close


def build():
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.4)
    return model


def train(opt_name, steps=8, lr_scale=1.0):
    model = build()
    opts = {
        "sgd": lambda p: torch.optim.SGD(p, lr=0.1 * lr_scale, momentum=0.9, nesterov=True),
        "adam": lambda p: torch.optim.Adam(p, lr=0.01 * lr_scale, betas=(0.8, 0.99)),
        "adamw": lambda p: torch.optim.AdamW(p, lr=0.01 * lr_scale, weight_decay=0.1, amsgrad=True),
        "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01 * lr_scale, centered=True),
    }
    opt = opts[opt_name](model.parameters())
    x = torch.linspace(-1, 1, 24).reshape(8, 3)
    y = torch.stack([x.sum(1), x[:, 0] * x[:, 1]], dim=1)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return model, opt, loss.item()


def check(label, actual, expected, **kw):
    try:
        assert_close(actual, expected, **kw)
        print(f"{label}: identical")
    except AssertionError as e:
        lines = str(e).splitlines()
        print(f"{label}: {lines[0]} | {lines[-1]}")


for name in ["sgd", "adam", "adamw", "rmsprop"]:
    m1, o1, l1 = train(name)
    m2, o2, l2 = train(name)
    check(f"{name} model", m1.state_dict(), m2.state_dict())
    check(f"{name} optim", o1.state_dict(), o2.state_dict())
    m3, o3, _ = train(name, lr_scale=1.5)
    check(f"{name} model lr*1.5", m1.state_dict(), m3.state_dict(), rtol=1e-3, atol=1e-3)
    check(f"{name} optim lr*1.5", o1.state_dict(), o3.state_dict(), rtol=1e-3, atol=1e-3)
    print(f"{name} loss equal: {l1 == l2}")

# what the state dicts contain, as a test would dump them on failure
_, opt, _ = train("adam", steps=2)
sd = opt.state_dict()
print(sorted(sd["param_groups"][0].keys()))
print({k: type(v).__name__ for k, v in sorted(sd["state"][0].items())})
pg = copy.deepcopy(sd["param_groups"])
pg[0]["betas"] = (0.8, 0.98)
check("betas tuple", pg, sd["param_groups"])
pg[0]["betas"] = (0.8, 0.99)
pg[0]["amsgrad"] = True
check("amsgrad flag", pg, sd["param_groups"])
