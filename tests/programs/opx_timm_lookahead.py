# timm-style Lookahead wrapper that deliberately skips Optimizer.__init__ (it borrows the base
# optimizer's param_groups/defaults/state); training calls model.zero_grad() and wrapper.step().
from collections import defaultdict

import torch
import torch.nn as nn
from torch.optim import Optimizer


class Lookahead(Optimizer):
    def __init__(self, base_optimizer, alpha=0.5, k=6):
        # NOTE super().__init__() not called on purpose
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"Invalid slow update rate: {alpha}")
        if not 1 <= k:
            raise ValueError(f"Invalid lookahead steps: {k}")
        defaults = dict(lookahead_alpha=alpha, lookahead_k=k, lookahead_step=0)
        self._base_optimizer = base_optimizer
        self.param_groups = base_optimizer.param_groups
        self.defaults = base_optimizer.defaults
        self.defaults.update(defaults)
        self.state = defaultdict(dict)
        for name, default in defaults.items():
            for group in self._base_optimizer.param_groups:
                group.setdefault(name, default)

    @torch.no_grad()
    def update_slow(self, group):
        for fast_p in group["params"]:
            if fast_p.grad is None:
                continue
            param_state = self._base_optimizer.state[fast_p]
            if "lookahead_slow_buff" not in param_state:
                param_state["lookahead_slow_buff"] = torch.empty_like(fast_p)
                param_state["lookahead_slow_buff"].copy_(fast_p)
            slow = param_state["lookahead_slow_buff"]
            slow.add_(fast_p - slow, alpha=group["lookahead_alpha"])
            fast_p.copy_(slow)

    def sync_lookahead(self):
        for group in self._base_optimizer.param_groups:
            self.update_slow(group)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._base_optimizer.step(closure)
        for group in self._base_optimizer.param_groups:
            group["lookahead_step"] += 1
            if group["lookahead_step"] % group["lookahead_k"] == 0:
                self.update_slow(group)
        return loss

    def state_dict(self):
        return self._base_optimizer.state_dict()

    def load_state_dict(self, state_dict):
        self._base_optimizer.load_state_dict(state_dict)
        self.param_groups = self._base_optimizer.param_groups


model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p))
t = torch.linspace(-1, 1, 16)
x = torch.stack([t, t ** 3], 1)
y = torch.sin(2 * t).unsqueeze(1)

base = torch.optim.RAdam(model.parameters(), lr=0.05)
opt = Lookahead(base, alpha=0.5, k=3)
print(opt)
for step in range(12):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if step % 3 == 2:
        print(step, f"{loss.item():.4f}", opt.param_groups[0]["lookahead_step"])
opt.sync_lookahead()
sd = opt.state_dict()
print(sorted(sd["state"][0].keys()), sd["param_groups"][0]["lookahead_k"])
opt.load_state_dict(sd)
print(opt.param_groups is base.param_groups, len(opt.state), len(base.state))

sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
for _ in range(3):
    opt.step()
    sched.step()
print(sched.get_last_lr(), base.param_groups[0]["lr"])
try:
    Lookahead(base, alpha=2.0)
except ValueError as e:
    print(type(e).__name__, e)
