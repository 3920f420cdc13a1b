# Hand-written Lightning-style Trainer: configure_optimizers returns ([optimizers], [scheduler dicts])
# with interval "step"/"epoch" and frequency, accumulate_grad_batches, gradient_clip_algorithm
# "norm"/"value", on_before_optimizer_step hook logging grad norms, trainer.callback_metrics.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LightningModuleLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.logged = {}

    def log(self, name, value):
        self.logged[name] = value.detach() if torch.is_tensor(value) else torch.tensor(value)


class Regressor(LightningModuleLite):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.4)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x).squeeze(-1), y)
        self.log("train_loss", loss)
        return {"loss": loss}

    def configure_optimizers(self):
        opt = torch.optim.SGD(self.parameters(), lr=0.05, momentum=0.9, nesterov=True)
        warm = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 4))
        decay = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
        return [opt], [{"scheduler": warm, "interval": "step", "frequency": 1},
                       {"scheduler": decay, "interval": "epoch", "frequency": 2}]

    def on_before_optimizer_step(self, optimizer):
        norms = [p.grad.norm(2) for p in self.parameters() if p.grad is not None]
        self.log("grad_2.0_norm_total", torch.stack(norms).norm(2))


class Trainer:
    def __init__(self, max_epochs, accumulate_grad_batches=1, gradient_clip_val=None,
                 gradient_clip_algorithm="norm"):
        self.max_epochs = max_epochs
        self.accum = accumulate_grad_batches
        self.clip_val = gradient_clip_val
        self.clip_algo = gradient_clip_algorithm
        self.global_step = 0
        self.callback_metrics = {}

    def _clip(self, params):
        if self.clip_val is None:
            return
        if self.clip_algo == "value":
            torch.nn.utils.clip_grad_value_(params, self.clip_val)
        else:
            torch.nn.utils.clip_grad_norm_(params, self.clip_val)

    def _step_schedulers(self, configs, interval, counter):
        for cfg in configs:
            if cfg["interval"] == interval and counter % cfg["frequency"] == 0:
                cfg["scheduler"].step()

    def fit(self, module, loader):
        (opt,), scheds = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(loader):
                out = module.training_step(batch, batch_idx)
                (out["loss"] / self.accum).backward()
                last = batch_idx + 1 == len(loader)
                if (batch_idx + 1) % self.accum == 0 or last:
                    module.on_before_optimizer_step(opt)
                    self._clip(list(module.parameters()))
                    opt.step()
                    opt.zero_grad(set_to_none=True)
                    self.global_step += 1
                    self._step_schedulers(scheds, "step", self.global_step)
            self._step_schedulers(scheds, "epoch", epoch + 1)
            self.callback_metrics.update(module.logged)
            lr = opt.param_groups[0]["lr"]
            print(f"epoch {epoch} step {self.global_step} lr {lr:.5f} "
                  f"loss {module.logged['train_loss'].item():.4f} "
                  f"gnorm {module.logged['grad_2.0_norm_total'].item():.4f}")
        return scheds


t = torch.linspace(-2, 2, 20)
X = torch.stack([t, torch.sin(t)], dim=1)
Y = 0.5 * t - torch.cos(t)
loader = DataLoader(TensorDataset(X, Y), batch_size=3, shuffle=False)
print("batches per epoch:", len(loader))

for algo, val, accum in [("norm", 0.5, 2), ("value", 0.05, 3), ("norm", None, 1)]:
    model = Regressor()
    trainer = Trainer(max_epochs=4, accumulate_grad_batches=accum, gradient_clip_val=val,
                      gradient_clip_algorithm=algo)
    print(f"--- clip={algo}:{val} accumulate={accum}")
    scheds = trainer.fit(model, loader)
    print("global_step", trainer.global_step, "metrics", sorted(trainer.callback_metrics))
    print("warm last_epoch", scheds[0]["scheduler"].last_epoch,
          "decay last_epoch", scheds[1]["scheduler"].last_epoch,
          "decay lr", [round(v, 6) for v in scheds[1]["scheduler"].get_last_lr()])
