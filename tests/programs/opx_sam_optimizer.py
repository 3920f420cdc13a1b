# Sharpness-Aware Minimization (SAM) as in the popular davda54/sam repo: an Optimizer subclass
# wrapping a base optimizer, sharing param_groups, with first_step/second_step and a closure step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, adaptive=False, **kwargs):
        assert rho >= 0.0, f"Invalid rho, should be non-negative: {rho}"
        defaults = dict(rho=rho, adaptive=adaptive, **kwargs)
        super(SAM, self).__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.defaults.update(self.base_optimizer.defaults)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()
                e_w = (torch.pow(p, 2) if group["adaptive"] else 1.0) * p.grad * scale.to(p)
                p.add_(e_w)
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def step(self, closure=None):
        assert closure is not None, "Sharpness Aware Minimization requires closure, but it was not provided"
        closure = torch.enable_grad()(closure)
        self.first_step(zero_grad=True)
        closure()
        self.second_step()

    def _grad_norm(self):
        shared_device = self.param_groups[0]["params"][0].device
        norm = torch.norm(
            torch.stack([
                ((torch.abs(p) if group["adaptive"] else 1.0) * p.grad).norm(p=2).to(shared_device)
                for group in self.param_groups for p in group["params"]
                if p.grad is not None
            ]),
            p=2,
        )
        return norm

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        self.base_optimizer.param_groups = self.param_groups


model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p))

x = torch.stack([torch.linspace(-1, 1, 16), torch.sin(torch.linspace(0, 3, 16)), torch.cos(torch.linspace(0, 2, 16))], 1)
y = (x[:, 0] + x[:, 1] > 0).long()

for adaptive in (False, True):
    opt = SAM(model.parameters(), torch.optim.SGD, rho=0.5 if adaptive else 0.05,
              adaptive=adaptive, lr=0.1, momentum=0.9)
    print(type(opt.base_optimizer).__name__, opt.param_groups is opt.base_optimizer.param_groups)
    print(sorted(opt.param_groups[0].keys()))
    for step in range(8):
        def closure():
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            return loss
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(closure)
        opt.zero_grad()
        if step % 2 == 0:
            print(adaptive, step, f"{loss.item():.4f}")
    w = model[0].weight
    print(sorted(opt.state[w].keys()), sorted(opt.base_optimizer.state[w].keys()))
    print(opt.state[w] is opt.base_optimizer.state[w])
    print(f"{opt._grad_norm().item() if model[0].weight.grad is not None else -1:.4f}")

sd = opt.state_dict()
print(sorted(sd.keys()), len(sd["state"]), sd["param_groups"][0]["rho"])
opt.load_state_dict(sd)
print(opt.base_optimizer.param_groups is opt.param_groups)
try:
    opt.step()
except AssertionError as e:
    print("AssertionError", e)
