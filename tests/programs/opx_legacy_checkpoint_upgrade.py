# Resuming from an optimizer checkpoint written by an older PyTorch / older version of your own code:
# param groups lacking newer options (foreach, maximize, fused, ...), "step" stored as a Python number,
# a custom optimizer whose __setstate__ fills defaults, named-parameter groups, and stray state entries.
import copy

import torch
import torch.nn as nn


def make_model():
    m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view_as(p))
    return m


x = torch.stack([torch.linspace(-1, 1, 10), torch.cos(torch.arange(10.0)), torch.arange(10.0) / 10], 1)
y = (x[:, :1] - 2 * x[:, 2:]) ** 2


def train(model, opt, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return f"{loss.item():.5f}"


NEW_KEYS = ["foreach", "maximize", "capturable", "differentiable", "fused", "decoupled_weight_decay"]
for name, make in [("Adam", lambda p: torch.optim.Adam(p, lr=0.01)), ("AdamW", lambda p: torch.optim.AdamW(p, lr=0.01)),
                   ("SGD", lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)), ("RMSprop", lambda p: torch.optim.RMSprop(p, lr=0.01)),
                   ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.01)), ("ASGD", lambda p: torch.optim.ASGD(p, lr=0.01)),
                   ("Adagrad", lambda p: torch.optim.Adagrad(p, lr=0.05))]:
    model = make_model()
    opt = make(model.parameters())
    train(model, opt, 3)
    old = copy.deepcopy(opt.state_dict())
    for group in old["param_groups"]:
        for key in NEW_KEYS + ["nesterov", "centered"]:
            group.pop(key, None)
    for st in old["state"].values():  # old checkpoints kept scalars as numbers
        for key in ("step", "eta", "mu", "mu_product"):
            if key in st:
                st[key] = st[key].item()
    model2 = make_model()
    model2.load_state_dict(model.state_dict())
    opt2 = make(model2.parameters())
    opt2.load_state_dict(old)
    st = opt2.state[next(model2.parameters())]
    print(f"{name:8s}", sorted(k for k in opt2.param_groups[0] if k in NEW_KEYS + ["nesterov", "centered"]),
          {k: type(v).__name__ for k, v in st.items() if k in ("step", "eta", "mu", "mu_product")})
    print(f"{name:8s}", train(model, opt, 3), train(model2, opt2, 3))


class MomentumSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.9, nesterov=False):
        super().__init__(params, dict(lr=lr, momentum=momentum, nesterov=nesterov))

    def __setstate__(self, state):
        print("  __setstate__ called with", sorted(state))
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                buf = self.state[p].setdefault("buf", torch.zeros_like(p))
                buf.mul_(group["momentum"]).add_(p.grad)
                update = p.grad.add(buf, alpha=group["momentum"]) if group["nesterov"] else buf
                p.add_(update, alpha=-group["lr"])


model = make_model()
opt = MomentumSGD(model.named_parameters(), lr=0.05)
print(train(model, opt, 2), opt.param_groups[0]["param_names"])
sd = opt.state_dict()
del sd["param_groups"][0]["nesterov"]
del sd["param_groups"][0]["param_names"]
sd["state"]["ema_decay"] = 0.99  # bookkeeping some trainers stash in the optimizer state
opt2 = MomentumSGD(model.named_parameters(), lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]["nesterov"], opt2.param_groups[0]["param_names"], opt2.param_groups[0]["lr"])
print(len(opt2.state), opt2.state["ema_decay"], sorted(map(str, opt2.state_dict()["state"].keys())))
print(train(model, opt2, 2))
