# A compiled classifier and a compiled evaluation function: accuracy with argmax, top-k accuracy,
# per-class counts, a loss with ignore_index, all returned as a dict; predictions under
# torch.no_grad() and torch.inference_mode(), and the same metrics with grads enabled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, 6)
        self.norm = nn.LayerNorm(6)
        self.head = nn.Linear(6, 3)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * (i + 1)).view_as(p))

    def forward(self, x):
        return self.head(F.gelu(self.norm(self.embed(x))))


model = torch.compile(Classifier())


@torch.compile
def evaluate(logits, labels):
    probs = logits.softmax(-1)
    pred = logits.argmax(dim=-1)
    top2 = logits.topk(2, dim=-1).indices
    return {
        "loss": F.cross_entropy(logits, labels, ignore_index=-100),
        "acc": (pred == labels).float().mean(),
        "top2": (top2 == labels[:, None]).any(-1).float().mean(),
        "conf": probs.max(-1).values,
        "per_class": F.one_hot(pred, 3).sum(0),
    }


x = torch.linspace(-2.0, 2.0, 24).view(6, 4)
labels = torch.tensor([0, 1, 2, 2, -100, 1])
with torch.no_grad():
    logits = model(x)
    metrics = evaluate(logits, labels)
for k, v in metrics.items():
    print(k, v, v.dtype, v.requires_grad)

with torch.inference_mode():
    out = model(x)
print(out.is_inference(), torch.equal(out, logits))

logits = model(x)
metrics = evaluate(logits, labels)
print(metrics["loss"], metrics["acc"], metrics["loss"].grad_fn.name())
print(metrics["conf"].requires_grad, metrics["per_class"].requires_grad, metrics["per_class"].dtype)
metrics["loss"].backward()
print(model.head.bias.grad)
print(model.norm.weight.grad)

pred = logits.argmax(-1)
print(pred, [int(p) for p in pred], pred.tolist() == metrics["per_class"].tolist())
