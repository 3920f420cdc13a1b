# ReduceLROnPlateau as used with validation metrics: mode='max', abs threshold, cooldown,
# per-group min_lr, eps; checkpoint its state_dict and resume into a fresh scheduler.
import torch

w = torch.nn.Parameter(torch.ones(2))
b = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=1.0)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1,
                                                   threshold=0.05, threshold_mode="abs",
                                                   cooldown=2, min_lr=[0.1, 0.2], eps=1e-3)
accs = [0.50, 0.60, 0.62, 0.63, 0.64, 0.70, 0.70, 0.71, 0.69, 0.70, 0.70, 0.70, 0.70, 0.70]
for epoch, acc in enumerate(accs):
    opt.step()
    sched.step(acc)
    print(epoch, acc, [round(x, 4) for x in sched.get_last_lr()],
          sched.num_bad_epochs, sched.cooldown_counter, round(sched.best, 4))

sd = sched.state_dict()
print(sorted(sd.keys()))
print(sd["mode"], sd["threshold_mode"], sd["best"], sd["last_epoch"], sd["min_lrs"], sd["_last_lr"])

opt2 = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=1.0)
fresh = torch.optim.lr_scheduler.ReduceLROnPlateau(opt2, mode="max")
fresh.load_state_dict(sd)
print(fresh.patience, fresh.factor, fresh.cooldown, fresh.min_lrs, fresh.best, fresh.last_epoch)

opt3 = torch.optim.Adam([w], lr=0.01)
rel = torch.optim.lr_scheduler.ReduceLROnPlateau(opt3, patience=0, factor=0.1)
for loss in [1.0, 0.9999, 0.95, 0.95, 0.96]:
    rel.step(torch.tensor(loss))
    print("min/rel", loss, rel.get_last_lr(), rel.num_bad_epochs)
print(type(rel.best).__name__)

for bad in [dict(factor=1.0), dict(mode="median"), dict(threshold_mode="pct"), dict(min_lr=[0.1, 0.2])]:
    try:
        torch.optim.lr_scheduler.ReduceLROnPlateau(opt3, **bad)
    except ValueError as e:
        print("ValueError", e)
