# Early stopping with ReduceLROnPlateau: keep the best state_dict in an io.BytesIO checkpoint
# (and a copy.deepcopy), stop after `patience` epochs without improvement, then reload the best.
import copy
import io

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Dropout(0.0), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view_as(p))

t = torch.linspace(-1, 1, 40)
x = torch.stack([t, t * t], 1)
y = torch.sin(3 * t).unsqueeze(1)
x_tr, y_tr, x_va, y_va = x[::2], y[::2], x[1::2], y[1::2] + 0.05 * torch.cos(37 * t[1::2]).unsqueeze(1)

opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, threshold=1e-3, cooldown=1, min_lr=0.01)
best, best_epoch, bad_epochs, patience = float("inf"), -1, 0, 6
best_buf = io.BytesIO()
best_copy = None
history = []
for epoch in range(60):
    model.train()
    loss = nn.functional.mse_loss(model(x_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(x_va), y_va).item()
    sched.step(val)
    history.append((epoch, round(loss.item(), 4), round(val, 4), opt.param_groups[0]["lr"], sched.num_bad_epochs))
    if val < best - 1e-4:
        best, best_epoch, bad_epochs = val, epoch, 0
        best_buf.seek(0)
        best_buf.truncate()
        torch.save({"epoch": epoch, "model": model.state_dict(), "optim": opt.state_dict()}, best_buf)
        best_copy = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print("early stop at", epoch)
            break
for row in history[::3]:
    print(*row)
print("best", best_epoch, f"{best:.4f}", sched.best == best or round(sched.best, 4), sched.cooldown_counter)
print(sched.state_dict().keys())
print(type(sched).__name__, sched.get_last_lr() == [opt.param_groups[0]["lr"]])

best_buf.seek(0)
ckpt = torch.load(best_buf, weights_only=True)
print(ckpt["epoch"], list(ckpt["model"].keys()))
model.load_state_dict(ckpt["model"])
with torch.no_grad():
    print(f"{nn.functional.mse_loss(model(x_va), y_va).item():.4f}")
print(all(torch.equal(a, b) for a, b in zip(best_copy.values(), model.state_dict().values())))
opt.load_state_dict(ckpt["optim"])
print(opt.param_groups[0]["lr"], len(opt.state), sorted(opt.state_dict()["state"][0].keys()))

# strict=False reports the mismatch instead of raising
partial = {k: v for k, v in ckpt["model"].items() if k.startswith("0.")}
partial["extra.weight"] = torch.zeros(1)
res = model.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(res)
try:
    model.load_state_dict(partial)
except RuntimeError as e:
    print("RuntimeError", e)
bad = dict(ckpt["model"])
bad["0.weight"] = torch.zeros(3, 2)
try:
    model.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", e)

for kw in [dict(mode="avg"), dict(threshold_mode="pct"), dict(factor=1.0)]:
    try:
        ReduceLROnPlateau(opt, **kw)
    except ValueError as e:
        print("ValueError", e)
try:
    ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])
except ValueError as e:
    print("ValueError", e)
s2 = ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", threshold=0.1, patience=0, eps=1e-3)
for acc in [0.5, 0.55, 0.7, 0.71, 0.65]:
    s2.step(acc)
    print(acc, opt.param_groups[0]["lr"], s2.best, s2.num_bad_epochs)
