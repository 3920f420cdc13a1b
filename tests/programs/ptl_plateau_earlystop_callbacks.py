# Callback-driven validation loop: EarlyStopping(monitor="val_acc", mode="max", min_delta,
# patience, check_finite, stopping_threshold) plus ReduceLROnPlateau(mode="max", threshold_mode="abs",
# cooldown, per-group min_lr) stepped on the monitored metric; plateau state_dict round-trip.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    def __init__(self, monitor, mode="min", min_delta=0.0, patience=3, check_finite=True,
                 stopping_threshold=None):
        self.monitor, self.mode, self.patience = monitor, mode, patience
        self.min_delta = abs(min_delta) if mode == "max" else -abs(min_delta)
        self.check_finite, self.stopping_threshold = check_finite, stopping_threshold
        self.wait_count = 0
        self.best_score = torch.tensor(-math.inf if mode == "max" else math.inf)
        self.stopped_epoch = None

    def _improved(self, current):
        op = torch.gt if self.mode == "max" else torch.lt
        return bool(op(current - self.min_delta, self.best_score))

    def on_validation_end(self, epoch, metrics):
        current = metrics[self.monitor].squeeze()
        if self.check_finite and not torch.isfinite(current):
            return True, f"{self.monitor} = {current} is not finite"
        if self.stopping_threshold is not None and bool(torch.ge(current, self.stopping_threshold)):
            return True, f"Stopping threshold reached: {self.monitor} = {current.item():.4f}"
        if self._improved(current):
            self.best_score, self.wait_count = current, 0
            return False, f"Metric {self.monitor} improved. New best score: {current.item():.4f}"
        self.wait_count += 1
        if self.wait_count >= self.patience:
            return True, f"no improvement in {self.wait_count} records. Best: {self.best_score.item():.4f}"
        return False, f"wait {self.wait_count}/{self.patience}"


feats = torch.stack([torch.sin(torch.arange(30.0) * 0.37), torch.cos(torch.arange(30.0) * 0.53)], 1)
labels = (feats[:, 0] + 0.5 * feats[:, 1] > 0).long()
train_x, val_x, train_y, val_y = feats[:20], feats[20:], labels[:20], labels[20:]


def run(es_kwargs, epochs=25):
    model = nn.Linear(2, 2)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.1, -0.2], [-0.3, 0.05]]))
        model.bias.zero_()
    opt = torch.optim.SGD([{"params": [model.weight], "lr": 0.5},
                           {"params": [model.bias], "lr": 0.1}], lr=0.5)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(
        opt, mode="max", factor=0.5, patience=1, threshold=0.05, threshold_mode="abs",
        cooldown=1, min_lr=[0.05, 0.02])
    es = EarlyStopping(**es_kwargs)
    for epoch in range(epochs):
        opt.zero_grad()
        F.cross_entropy(model(train_x), train_y).backward()
        opt.step()
        with torch.no_grad():
            logits = model(val_x)
            metrics = {"val_loss": F.cross_entropy(logits, val_y),
                       "val_acc": (logits.argmax(dim=1) == val_y).float().mean()}
        plateau.step(metrics["val_acc"])
        stop, reason = es.on_validation_end(epoch, metrics)
        print(f"  ep {epoch:2d} acc {metrics['val_acc'].item():.2f} loss {metrics['val_loss'].item():.4f} "
              f"lr {[round(g['lr'], 4) for g in opt.param_groups]} "
              f"bad {plateau.num_bad_epochs} cd {plateau.cooldown_counter} | {reason}")
        if stop:
            es.stopped_epoch = epoch
            break
    return plateau, es


print("== monitor val_acc (max)")
plateau, es = run(dict(monitor="val_acc", mode="max", min_delta=0.01, patience=4))
print("stopped at", es.stopped_epoch, "best", es.best_score)
sd = plateau.state_dict()
print("plateau keys:", sorted(sd))
print("best:", sd["best"], "mode:", sd["mode"], "threshold_mode:", sd["threshold_mode"], "min_lrs:", sd["min_lrs"])
fresh = torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0))
fresh.load_state_dict(sd)
print("restored:", fresh.best, fresh.num_bad_epochs, fresh.last_epoch, fresh.mode_worse)

print("== stopping threshold on val_acc")
plateau, es = run(dict(monitor="val_acc", mode="max", stopping_threshold=0.9, patience=10))
print("stopped at", es.stopped_epoch)

print("== non-finite metric")
es = EarlyStopping(monitor="val_loss")
print(es.on_validation_end(0, {"val_loss": torch.tensor([float("nan")])}))
print(es.on_validation_end(1, {"val_loss": torch.tensor(float("inf"))}))
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.zeros(1, requires_grad=True)]), min_lr=[0.1, 0.2])
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([torch.zeros(1, requires_grad=True)]), threshold_mode="pct")
except ValueError as e:
    print(type(e).__name__, e)
