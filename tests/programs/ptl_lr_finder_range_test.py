# Lightning-style Tuner.lr_find: an exponential/linear LR range test driven by custom LRScheduler
# subclasses, smoothed loss with bias correction, early stop on divergence, suggestion from the
# steepest negative np.gradient of the loss curve, and restoring the initial weights afterwards.
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import LRScheduler


class _ExponentialLR(LRScheduler):
    def __init__(self, optimizer, end_lr, num_iter, last_epoch=-1):
        self.end_lr, self.num_iter = end_lr, num_iter
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        r = self.last_epoch / (self.num_iter - 1)
        return [base_lr * (self.end_lr / base_lr) ** r for base_lr in self.base_lrs]

    @property
    def lr(self):
        return self._lr

    def step(self, *args, **kwargs):
        super().step(*args, **kwargs)
        self._lr = self.get_last_lr()


class _LinearLR(_ExponentialLR):
    def get_lr(self):
        r = self.last_epoch / (self.num_iter - 1)
        return [base_lr + r * (self.end_lr - base_lr) for base_lr in self.base_lrs]


def build():
    net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_((torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 2.1 + i) * 0.6).view_as(p))
    return net


xs = torch.linspace(-2, 2, 32).unsqueeze(1)
ys = torch.sin(2 * xs)


def lr_find(model, mode="exponential", min_lr=1e-4, max_lr=10.0, num_training=40, beta=0.98,
            early_stop_threshold=4.0):
    initial = copy.deepcopy(model.state_dict())
    opt = torch.optim.SGD(model.parameters(), lr=min_lr)
    sched = (_ExponentialLR if mode == "exponential" else _LinearLR)(opt, max_lr, num_training)
    lrs, losses, avg, best = [], [], 0.0, None
    for it in range(num_training):
        idx = torch.arange(it % 4, 32, 4)
        opt.zero_grad()
        loss = F.mse_loss(model(xs[idx]), ys[idx])
        loss.backward()
        opt.step()
        lrs.append(sched.lr[0] if it else min_lr)
        sched.step()
        avg = beta * avg + (1 - beta) * loss.item()
        smoothed = avg / (1 - beta ** (it + 1))
        if not np.isfinite(smoothed) or (best is not None and smoothed > early_stop_threshold * best):
            print(f"  diverged at step {it}, lr {lrs[-1]:.3e}")
            break
        best = smoothed if best is None or smoothed < best else best
        losses.append(smoothed)
    model.load_state_dict(initial)
    lrs = lrs[:len(losses)]
    grads = np.gradient(np.array(losses))
    k = int(np.argmin(grads[1:-1])) + 1
    return lrs, losses, lrs[k]


for mode in ("exponential", "linear"):
    model = build()
    before = [p.detach().clone() for p in model.parameters()]
    lrs, losses, suggestion = lr_find(model, mode=mode)
    print(mode, "points:", len(losses))
    print("  lrs:", [f"{v:.2e}" for v in lrs[:40:6]])
    print("  losses:", [f"{v:.3f}" for v in losses[:40:6]])
    print(f"  suggested lr: {suggestion:.2e}")
    print("  weights restored:", all(torch.equal(a, b) for a, b in zip(before, model.parameters())))

opt = torch.optim.SGD(build().parameters(), lr=1e-3)
s = _ExponentialLR(opt, 1.0, 4)
print("initial lr property:", [f"{v:.1e}" for v in s.get_last_lr()], "last_epoch", s.last_epoch)
for _ in range(4):
    opt.step()
    s.step()
    print("  ", f"{s.lr[0]:.4e}", f"{opt.param_groups[0]['lr']:.4e}")
print("state:", sorted(k for k in s.state_dict() if not k.startswith("_")))
