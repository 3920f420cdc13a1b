# torchmetrics-style Metric modules written by hand: states as buffers (persistent or not) updated in
# place under @torch.no_grad(), compute()/reset(), MetricCollection-like dict with prefix, confusion
# matrix via index_put_(accumulate=True), macro F1 with zero-division handling, epoch-end aggregation.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Metric(nn.Module):
    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default, persistent=False):
        self.register_buffer(name, default.clone(), persistent=persistent)
        self._defaults[name] = default.clone()

    def reset(self):
        for name, default in self._defaults.items():
            getattr(self, name).copy_(default)

    def forward(self, *args):
        self.update(*args)
        return self.compute()


class MeanMetric(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("total", torch.tensor(0.0, dtype=torch.float64))
        self.add_state("weight", torch.tensor(0.0, dtype=torch.float64))

    @torch.no_grad()
    def update(self, value, weight=1.0):
        value = torch.as_tensor(value, dtype=torch.float64)
        self.total += value.sum() * weight
        self.weight += value.numel() * weight

    def compute(self):
        return (self.total / self.weight).float()


class ConfusionMatrix(Metric):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.add_state("confmat", torch.zeros(num_classes, num_classes, dtype=torch.long), persistent=True)

    @torch.no_grad()
    def update(self, logits, target):
        pred = logits.argmax(dim=-1)
        self.confmat.index_put_((target, pred), torch.ones_like(target), accumulate=True)

    def compute(self):
        return self.confmat.clone()


class MacroF1(ConfusionMatrix):
    def compute(self):
        cm = self.confmat.double()
        tp = cm.diag()
        precision = torch.where(cm.sum(0) > 0, tp / cm.sum(0), torch.zeros_like(tp))
        recall = torch.nan_to_num(tp / cm.sum(1), nan=0.0)
        f1 = torch.where(precision + recall > 0, 2 * precision * recall / (precision + recall), torch.zeros_like(tp))
        return f1.mean().float()


class Accuracy(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("correct", torch.tensor(0))
        self.add_state("total", torch.tensor(0))

    @torch.no_grad()
    def update(self, logits, target):
        self.correct += logits.argmax(dim=1).eq(target).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total


metrics = nn.ModuleDict({"acc": Accuracy(), "f1": MacroF1(3), "cm": ConfusionMatrix(3), "loss": MeanMetric()})
print("state_dict keys:", list(metrics.state_dict().keys()))
print("buffers:", [n for n, _ in metrics.named_buffers()])

model = nn.Linear(2, 3)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 0.0], [-0.5, 1.0], [0.0, -1.0]]))
    model.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
pts = torch.stack([torch.cos(torch.arange(18.0) * 0.7), torch.sin(torch.arange(18.0) * 1.3)], 1)
tgt = torch.arange(18) % 3

for epoch in range(2):
    for m in metrics.values():
        m.reset()
    step_acc = []
    for i in range(0, 18, 5):
        logits = model(pts[i:i + 5])
        loss = F.cross_entropy(logits, tgt[i:i + 5])
        step_acc.append(round(metrics["acc"](logits, tgt[i:i + 5]).item(), 4))
        metrics["f1"].update(logits, tgt[i:i + 5])
        metrics["cm"].update(logits, tgt[i:i + 5])
        metrics["loss"].update(loss.detach(), weight=len(logits))
        print(f"  step acc(running) {step_acc[-1]}  loss.requires_grad={loss.requires_grad}"
              f" state.requires_grad={metrics['loss'].total.requires_grad}")
    epoch_log = {f"val_{k}": v.compute() for k, v in metrics.items() if k != "cm"}
    print(f"epoch {epoch}:", {k: round(v.item(), 4) for k, v in epoch_log.items()})
    print("confmat:\n", metrics["cm"].compute())
    with torch.no_grad():
        model.weight.mul_(1.5)
print("acc state dtype:", metrics["acc"].correct.dtype, metrics["acc"].total)
print("persistent confmat in state_dict:", metrics.state_dict()["cm.confmat"].sum().item())
metrics["cm"].reset()
print("after reset:", metrics["cm"].confmat.sum().item(), metrics["cm"]._defaults["confmat"].sum().item())
