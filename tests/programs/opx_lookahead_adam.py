# Lookahead optimizer wrapper (Zhang et al. 2019) as commonly re-implemented in research repos:
# wraps an inner optimizer, keeps slow weights in its own state, and forwards param_groups.
from collections import defaultdict

import torch
import torch.nn as nn


class Lookahead(torch.optim.Optimizer):
    def __init__(self, optimizer, k=5, alpha=0.5):
        self.optimizer = optimizer
        self.k = k
        self.alpha = alpha
        self.param_groups = self.optimizer.param_groups
        self.state = defaultdict(dict)
        self.fast_state = self.optimizer.state
        for group in self.param_groups:
            group["counter"] = 0
        self.defaults = optimizer.defaults
        self._optimizer_step_pre_hooks = {}
        self._optimizer_step_post_hooks = {}

    def update(self, group):
        for fast in group["params"]:
            param_state = self.state[fast]
            if "slow_param" not in param_state:
                param_state["slow_param"] = torch.zeros_like(fast.data)
                param_state["slow_param"].copy_(fast.data)
            slow = param_state["slow_param"]
            slow += (fast.data - slow) * self.alpha
            fast.data.copy_(slow)

    def update_lookahead(self):
        for group in self.param_groups:
            self.update(group)

    def step(self, closure=None):
        loss = self.optimizer.step(closure)
        for group in self.param_groups:
            if group["counter"] == 0:
                self.update(group)
            group["counter"] += 1
            if group["counter"] >= self.k:
                group["counter"] = 0
        return loss

    def state_dict(self):
        fast_state_dict = self.optimizer.state_dict()
        slow_state = {(id(k) if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        fast_state = fast_state_dict["state"]
        param_groups = fast_state_dict["param_groups"]
        return {"fast_state": fast_state, "slow_state": slow_state, "param_groups": param_groups}


model = nn.Linear(4, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, -0.4]]))
    model.bias.fill_(0.05)
x = torch.stack([torch.sin(torch.arange(20.0) * (i + 1) * 0.3) for i in range(4)], 1)
y = x @ torch.tensor([[1.0], [2.0], [-1.0], [0.5]]) + 0.3

base = torch.optim.Adam(model.parameters(), lr=0.05, betas=(0.9, 0.999))
opt = Lookahead(base, k=3, alpha=0.5)
print(opt.param_groups[0]["counter"], opt.param_groups[0]["lr"], opt.defaults["betas"])
losses = []
for it in range(15):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if it % 3 == 0:
        print(it, f"{loss.item():.4f}", opt.param_groups[0]["counter"])
print("decreased", losses[-1] < losses[0])
print(model.weight.data.round(decimals=3))
sd = opt.state_dict()
print(sorted(sd.keys()), len(sd["fast_state"]), len(sd["slow_state"]))
print(sorted(sd["fast_state"][0].keys()), sd["fast_state"][0]["step"])
print(sd["param_groups"][0]["counter"], sorted(sd["param_groups"][0].keys()))
slow = opt.state[model.weight]["slow_param"]
print(slow.shape, slow.requires_grad, slow.data_ptr() != model.weight.data_ptr())
print(repr(opt).splitlines()[0], len(repr(opt).splitlines()))
