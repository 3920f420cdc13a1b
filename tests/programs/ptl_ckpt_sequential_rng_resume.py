# Lightning-style ModelCheckpoint to io.BytesIO: saves model/optimizer/SequentialLR(LinearLR warmup +
# CosineAnnealingLR) state plus torch/python/numpy RNG states; resume from the checkpoint reproduces
# the remaining losses exactly, including dropout masks drawn after restoring get_rng_state.
import io
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    return seed


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 10)
        self.drop = nn.Dropout(0.25)
        self.fc2 = nn.Linear(10, 3)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_((torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i) * 0.3).view_as(p))

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def make():
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=0.02, betas=(0.8, 0.95), weight_decay=1e-3)
    warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
    cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=9, eta_min=1e-4)
    sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[3])
    return model, opt, sched


X = torch.stack([torch.sin(torch.arange(24.0) * k) for k in (0.3, 0.7, 1.1, 1.9)], dim=1)
y = torch.arange(24) % 3


def train_step(model, opt, sched):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    sched.step()
    # a loss that depends on RNG only through dropout: report whether the mask pattern was reproduced
    return loss.item()


class ModelCheckpoint:
    def __init__(self):
        self.buffer = None

    def save(self, step, model, opt, sched):
        self.buffer = io.BytesIO()
        torch.save({
            "global_step": step,
            "state_dict": model.state_dict(),
            "optimizer_states": [opt.state_dict()],
            "lr_schedulers": [sched.state_dict()],
            "rng": {"torch": torch.get_rng_state(), "python": random.getstate(),
                    "numpy": np.random.get_state()},
        }, self.buffer)

    def load(self):
        self.buffer.seek(0)
        return torch.load(self.buffer, weights_only=False)


seed_everything(7)
model, opt, sched = make()
ckpt_cb = ModelCheckpoint()
trajectory, masks = [], []
for step in range(12):
    if step == 5:
        ckpt_cb.save(step, model, opt, sched)
    trajectory.append(train_step(model, opt, sched))
    masks.append(torch.rand(3))
print("final lr:", [f"{g['lr']:.5f}" for g in opt.param_groups])

ck = ckpt_cb.load()
print("checkpoint keys:", sorted(ck))
sd = ck["lr_schedulers"][0]
print("sequential keys:", sorted(sd))
print("milestones:", sd["_milestones"], "last_epoch:", sd["last_epoch"])
print("inner schedulers:", [sorted(k for k in s if not k.startswith("_")) for s in sd["_schedulers"]])
print("rng state:", ck["rng"]["torch"].dtype, ck["rng"]["torch"].dim())

seed_everything(123)  # different seed: the restored RNG must win
model2, opt2, sched2 = make()
model2.load_state_dict(ck["state_dict"])
opt2.load_state_dict(ck["optimizer_states"][0])
sched2.load_state_dict(ck["lr_schedulers"][0])
torch.set_rng_state(ck["rng"]["torch"])
random.setstate(ck["rng"]["python"])
np.random.set_state(ck["rng"]["numpy"])
print("lr after restore:", f"{opt2.param_groups[0]['lr']:.6f}", [f"{v:.6f}" for v in sched2.get_last_lr()])
resumed, masks2 = [], []
for step in range(ck["global_step"], 12):
    resumed.append(train_step(model2, opt2, sched2))
    masks2.append(torch.rand(3))
print("identical losses:", resumed == trajectory[5:])
print("identical rng draws:", all(torch.equal(a, b) for a, b in zip(masks2, masks[5:])))
print("final lr equal:", sched2.get_last_lr() == sched.get_last_lr())
print("final weights equal:", all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
