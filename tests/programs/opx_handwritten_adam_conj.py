# A hand-written Adam/AdamW from a blog post ("Adam from scratch"), checked against torch.optim:
# @torch.no_grad() step, lazily created state with a tensor step, bias correction, amsgrad option.
import math

import torch
import torch.nn as nn


class MyAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, decoupled=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, decoupled=decoupled)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if grad.is_sparse:
                    raise RuntimeError("Adam does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.tensor(0.0)
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                if group["weight_decay"] != 0:
                    if group["decoupled"]:
                        p.mul_(1 - group["lr"] * group["weight_decay"])
                    else:
                        grad = grad.add(p, alpha=group["weight_decay"])
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad.conj(), value=1 - beta2)
                step = state["step"].item()
                bias_correction1 = 1 - beta1 ** step
                bias_correction2 = 1 - beta2 ** step
                if group["amsgrad"]:
                    torch.maximum(state["max_exp_avg_sq"], exp_avg_sq, out=state["max_exp_avg_sq"])
                    denom = (state["max_exp_avg_sq"].sqrt() / math.sqrt(bias_correction2)).add_(group["eps"])
                else:
                    denom = (exp_avg_sq.sqrt() / math.sqrt(bias_correction2)).add_(group["eps"])
                p.addcdiv_(exp_avg, denom, value=-group["lr"] / bias_correction1)
        return loss


def make_model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 6), nn.GELU(), nn.Linear(6, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.5)
    return m


t = torch.linspace(-2, 2, 24)
x = torch.stack([t, t ** 2 / 4], 1)
y = torch.sin(2 * t).unsqueeze(1)

configs = [
    ("adam", dict(lr=0.02), torch.optim.Adam, dict(lr=0.02)),
    ("amsgrad", dict(lr=0.02, amsgrad=True), torch.optim.Adam, dict(lr=0.02, amsgrad=True)),
    ("l2", dict(lr=0.02, weight_decay=0.1), torch.optim.Adam, dict(lr=0.02, weight_decay=0.1)),
    ("adamw", dict(lr=0.02, weight_decay=0.1, decoupled=True), torch.optim.AdamW, dict(lr=0.02, weight_decay=0.1)),
]
for name, mine_kw, ref_cls, ref_kw in configs:
    results = []
    for cls, kw in ((MyAdam, mine_kw), (ref_cls, ref_kw)):
        model = make_model()
        opt = cls(model.parameters(), **kw)
        for it in range(25):
            def closure():
                opt.zero_grad()
                loss = ((model(x) - y) ** 2).mean()
                loss.backward()
                return loss
            loss = opt.step(closure)
        results.append((loss.item(), torch.cat([p.detach().flatten() for p in model.parameters()])))
        st = opt.state[model[0].weight]
        print(name, cls.__name__, sorted(st.keys()), st["step"], f"{loss.item():.5f}")
    print(name, "max param diff < 1e-5:", (results[0][1] - results[1][1]).abs().max().item() < 1e-5)

try:
    MyAdam(make_model().parameters(), betas=(1.0, 0.999))
except ValueError as e:
    print(type(e).__name__, e)
print(MyAdam(make_model().parameters(), lr=0.1))
