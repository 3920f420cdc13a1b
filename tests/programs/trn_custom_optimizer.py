# Writing your own optimizer by subclassing torch.optim.Optimizer (the blog-post recipe):
# defaults, param_groups, lazily initialised self.state, @torch.no_grad() step with a closure,
# state_dict/load_state_dict for the custom state, schedulers driving it, and its repr.
import torch
from torch.optim import Optimizer


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0, weight_decay=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group["weight_decay"] != 0:
                    d_p = d_p.add(p, alpha=group["weight_decay"])
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["buf"] = torch.zeros_like(p)
                state["step"] += 1
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(d_p)
                p.add_(torch.sign(buf), alpha=-group["lr"])
        return loss


w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
b = torch.nn.Parameter(torch.tensor(0.0))
X = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [1.0, 1.0, 1.0]])
y = torch.tensor([2.0, -1.0, 0.0])
opt = SignSGD([{"params": [w]}, {"params": [b], "lr": 0.05}], lr=0.1, momentum=0.5)
print(opt)
print(opt.defaults, type(opt.state).__name__, len(opt.state))


def closure():
    opt.zero_grad()
    loss = ((X @ w + b - y) ** 2).mean()
    loss.backward()
    return loss


sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for i in range(5):
    loss = opt.step(closure)
    sched.step()
    print(i, round(loss.item(), 5), w.data, round(b.item(), 5), sched.get_last_lr())
print(opt.state[w]["step"], opt.state[w]["buf"], len(opt.state))

sd = opt.state_dict()
print(sd["state"][0]["step"], sorted(sd["state"][0]), sd["param_groups"][1])
w2 = torch.nn.Parameter(torch.zeros(3))
b2 = torch.nn.Parameter(torch.tensor(0.0))
opt2 = SignSGD([{"params": [w2]}, {"params": [b2]}])
opt2.load_state_dict(sd)
print(opt2.param_groups[1]["lr"], opt2.param_groups[1]["initial_lr"], opt2.state[b2])
try:
    SignSGD([w], lr=-1)
except ValueError as e:
    print(type(e).__name__, e)
try:
    SignSGD([{"params": [w]}, {"params": [w]}])
except ValueError as e:
    print(type(e).__name__, e)
try:
    opt.step(lambda: 1 / 0)
except ZeroDivisionError as e:
    print(type(e).__name__, e)


class Minimal(Optimizer):
    def step(self, closure=None):
        pass


m = Minimal([w], {"lr": 1.0})
print(m.param_groups[0]["lr"], m.state_dict()["param_groups"])
try:
    Optimizer([w], {}).step()
except NotImplementedError as e:
    print(type(e).__name__, e)
