# Training-time calibration: compare cross entropy, label smoothing and focal loss on a tiny
# linear classifier; print loss curves, final confidence, NLL and Brier per method.
import torch
import torch.nn as nn
import torch.nn.functional as F

t = torch.linspace(0, 3, 24)
X = torch.stack([torch.sin(t * 2), torch.cos(t * 3), t / 3], 1)
y = (torch.arange(24) // 8)


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, reduction="mean"):
        super().__init__()
        self.gamma = gamma
        self.reduction = reduction

    def forward(self, logits, target):
        logp = F.log_softmax(logits, dim=-1).gather(1, target.unsqueeze(1)).squeeze(1)
        p = logp.exp()
        loss = -((1 - p) ** self.gamma) * logp
        return loss.mean() if self.reduction == "mean" else loss.sum()


def model_init():
    m = nn.Linear(3, 3)
    with torch.no_grad():
        m.weight.copy_(torch.arange(9, dtype=torch.float32).reshape(3, 3) * 0.05 - 0.2)
        m.bias.zero_()
    return m


losses = {
    "ce": nn.CrossEntropyLoss(),
    "ls0.1": nn.CrossEntropyLoss(label_smoothing=0.1),
    "focal2": FocalLoss(gamma=2.0),
}
for name, crit in losses.items():
    m = model_init()
    opt = torch.optim.SGD(m.parameters(), lr=0.5, momentum=0.9)
    for step in range(30):
        opt.zero_grad()
        loss = crit(m(X), y)
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"{name} step {step} loss {loss.item():.4f}")
    with torch.no_grad():
        p = m(X).softmax(-1)
        conf = p.max(-1).values.mean()
        nll = F.cross_entropy(m(X), y)
        brier = (p - F.one_hot(y, 3)).pow(2).sum(-1).mean()
    print(f"{name}: conf {conf:.3f} nll {nll:.3f} brier {brier:.3f}")

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]], requires_grad=True)
tgt = torch.tensor([0, 2])
l = F.cross_entropy(logits, tgt, label_smoothing=0.2, reduction="none")
print(l)
l.sum().backward()
print(logits.grad)
soft = torch.tensor([[0.8, 0.1, 0.1], [0.0, 0.5, 0.5]])
print(F.cross_entropy(logits, soft, label_smoothing=0.1))
print(F.cross_entropy(logits, tgt, label_smoothing=0.1, weight=torch.tensor([1.0, 2.0, 3.0])))
print(F.cross_entropy(logits, torch.tensor([0, -100]), label_smoothing=0.1, ignore_index=-100))
try:
    F.cross_entropy(logits, tgt, label_smoothing=1.5)
except Exception as e:
    print(type(e).__name__, e)
