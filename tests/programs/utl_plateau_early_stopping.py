# Validation-driven training loop: ReduceLROnPlateau fed a hand-made validation metric (mode="max" for
# accuracy, mode="min" for loss with threshold_mode="abs", cooldown, min_lr) and an EarlyStopping class.
import copy

import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.counter, self.best_state = None, 0, None

    def __call__(self, val_loss, model):
        if self.best is None or val_loss < self.best - self.min_delta:
            self.best, self.counter = val_loss, 0
            self.best_state = copy.deepcopy(model.state_dict())
            return False
        self.counter += 1
        return self.counter >= self.patience


model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.3, -0.2]]))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=1e-3,
                          threshold_mode="abs", cooldown=1, min_lr=0.02)
stopper = EarlyStopping(patience=4, min_delta=1e-4)
print(sched.get_last_lr(), sched.mode, sched.best)

val_losses = [1.0, 0.8, 0.7995, 0.7992, 0.75, 0.7499, 0.7498, 0.7497, 0.70, 0.7001, 0.7002, 0.7003,
              0.7004, 0.7005]
for epoch, v in enumerate(val_losses):
    with torch.no_grad():
        model.weight.mul_(0.9)
    sched.step(v)
    stop = stopper(v, model)
    print(f"epoch {epoch:2d} val {v:.4f} lr {opt.param_groups[0]['lr']:.4f} bad {sched.num_bad_epochs} "
          f"cooldown {sched.cooldown_counter} best {sched.best:.4f} es {stopper.counter}")
    if stop:
        print("early stop at epoch", epoch)
        break
model.load_state_dict(stopper.best_state)
print("restored weight:", model.weight.data.round(decimals=4), "best:", stopper.best)

# mode="max" on accuracy computed from predictions, relative threshold
opt2 = torch.optim.Adam([torch.nn.Parameter(torch.zeros(1))], lr=1e-2)
opt2.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 1e-3})
sched2 = ReduceLROnPlateau(opt2, mode="max", factor=0.1, patience=0, min_lr=[1e-4, 1e-5], eps=1e-9)
target = torch.tensor([0, 1, 1, 0, 1, 0, 1, 1])
for epoch in range(6):
    logits = torch.stack([torch.cos(torch.arange(8.0) + epoch * 0.3), torch.sin(torch.arange(8.0) * 1.5)], 1)
    acc = (logits.argmax(1) == target).float().mean()
    sched2.step(acc)
    print(epoch, f"acc {acc.item():.3f}", [f"{g['lr']:.0e}" for g in opt2.param_groups], sched2.get_last_lr())

sd = sched2.state_dict()
print(sorted(k for k in sd.keys()))
print(sd["best"], sd["num_bad_epochs"], sd["last_epoch"], sd["min_lrs"])
try:
    ReduceLROnPlateau(opt2, mode="maximize")
except ValueError as e:
    print(type(e).__name__, e)
try:
    ReduceLROnPlateau(opt2, factor=1.0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    ReduceLROnPlateau(opt2, min_lr=[0.1])
except ValueError as e:
    print(type(e).__name__, e)
try:
    ReduceLROnPlateau(opt2, threshold_mode="relative")
except ValueError as e:
    print(type(e).__name__, e)
