# Multi-tensor ("foreach") optimizer implementations as written in research repos: Lion and LAMB
# using torch._foreach_* ops on lists of params/grads/states, with tensor lr and trust ratio.
import torch
import torch.nn as nn


class Lion(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-4, betas=(0.9, 0.99), weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            grads = [p.grad for p in params]
            exp_avgs = []
            for p in params:
                state = self.state[p]
                if not state:
                    state["exp_avg"] = torch.zeros_like(p)
                exp_avgs.append(state["exp_avg"])
            beta1, beta2 = group["betas"]
            torch._foreach_mul_(params, 1 - group["lr"] * group["weight_decay"])
            updates = torch._foreach_mul(exp_avgs, beta1)
            torch._foreach_add_(updates, grads, alpha=1 - beta1)
            updates = [u.sign_() for u in updates]
            torch._foreach_add_(params, updates, alpha=-group["lr"])
            torch._foreach_mul_(exp_avgs, beta2)
            torch._foreach_add_(exp_avgs, grads, alpha=1 - beta2)


class Lamb(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            grads = [p.grad for p in params]
            for p in params:
                if not self.state[p]:
                    self.state[p]["step"] = torch.tensor(0.0)
                    self.state[p]["exp_avg"] = torch.zeros_like(p)
                    self.state[p]["exp_avg_sq"] = torch.zeros_like(p)
            steps = [self.state[p]["step"] for p in params]
            m = [self.state[p]["exp_avg"] for p in params]
            v = [self.state[p]["exp_avg_sq"] for p in params]
            beta1, beta2 = group["betas"]
            torch._foreach_add_(steps, 1)
            torch._foreach_lerp_(m, grads, 1 - beta1)
            torch._foreach_mul_(v, beta2)
            torch._foreach_addcmul_(v, grads, grads, 1 - beta2)
            bc1 = [1 - beta1 ** s.item() for s in steps]
            bc2 = [(1 - beta2 ** s.item()) ** 0.5 for s in steps]
            m_hat = torch._foreach_div(m, bc1)
            denom = torch._foreach_sqrt(v)
            torch._foreach_div_(denom, bc2)
            torch._foreach_add_(denom, group["eps"])
            updates = torch._foreach_div(m_hat, denom)
            if group["weight_decay"]:
                torch._foreach_add_(updates, params, alpha=group["weight_decay"])
            w_norms = torch._foreach_norm(params)
            u_norms = torch._foreach_norm(updates)
            trust = [torch.where((wn > 0) & (un > 0), wn / un, torch.ones_like(wn)) for wn, un in zip(w_norms, u_norms)]
            torch._foreach_mul_(updates, trust)
            torch._foreach_add_(params, updates, alpha=-group["lr"])
            self.last_trust = [round(t.item(), 3) for t in trust]


def make_model():
    m = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view_as(p) + 0.1)
    return m


t = torch.linspace(-1, 1, 20)
x = torch.stack([t, t.abs(), torch.cos(4 * t)], 1)
y = (2 * t.abs() - torch.cos(4 * t)).unsqueeze(1)
for name, make in [("lion", lambda p: Lion(p, lr=0.01, weight_decay=0.1)),
                   ("lamb", lambda p: Lamb(p, lr=0.02, weight_decay=0.01))]:
    model = make_model()
    opt = make(model.parameters())
    for it in range(12):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if it % 4 == 0:
            print(name, it, f"{loss.item():.4f}")
    print(name, sorted(opt.state[model[0].weight].keys()), getattr(opt, "last_trust", None))

# the foreach primitives users call directly
a = [torch.tensor([1.0, 4.0]), torch.tensor([9.0])]
print(torch._foreach_sqrt(a), torch._foreach_norm(a, 1))
print(torch._foreach_add(a, [1.0, 2.0]), torch._foreach_mul(a, torch.tensor(2.0)))
print(torch._foreach_maximum(a, 3.0), torch._foreach_neg(a))
b = [t.clone() for t in a]
torch._foreach_addcdiv_(b, a, [torch.tensor([2.0, 2.0]), torch.tensor([3.0])], value=0.5)
print(b)
torch._foreach_zero_(b)
print(b)
try:
    torch._foreach_add(a, [1.0])
except RuntimeError as e:
    print(type(e).__name__, e)

# tensor learning rate in built-in optimizers
p = nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.Adam([p], lr=torch.tensor(0.01))
p.grad = torch.tensor([0.5, -0.5])
opt.step()
print(opt.param_groups[0]["lr"], p.data, opt.state[p]["step"])
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
opt.step()
sched.step()
print(opt.param_groups[0]["lr"], sched.get_last_lr())
