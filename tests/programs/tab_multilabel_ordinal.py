# Multi-label classification (sigmoid + threshold, per-label metrics) and ordinal regression with
# cumulative logits (CORAL-style targets), trained full-batch from hand-set weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

X = torch.tensor([[1.0, 0.0, 0.5], [0.0, 1.0, 0.2], [1.0, 1.0, 0.9], [0.2, 0.1, 0.0],
                  [0.8, 0.3, 0.6], [0.1, 0.9, 0.7]])
Y = torch.tensor([[1, 0, 1], [0, 1, 0], [1, 1, 1], [0, 0, 0], [1, 0, 1], [0, 1, 1]]).float()
model = nn.Linear(3, 3)
with torch.no_grad():
    model.weight.copy_(torch.eye(3) * 0.5)
    model.bias.fill_(-0.1)
opt = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9)
crit = nn.BCEWithLogitsLoss()
for epoch in range(30):
    opt.zero_grad()
    loss = crit(model(X), Y)
    loss.backward()
    opt.step()
print(f"final loss {loss:.4f}")
probs = torch.sigmoid(model(X))
pred = (probs > 0.5).int()
print(pred, pred.dtype, probs.grad_fn.name())
print((pred == Y).all(dim=1).float().mean(), (pred != Y).float().mean())
tp = (pred * Y).sum(0)
print(tp, tp.dtype, pred.sum(0), Y.sum(0))
prec = tp / pred.sum(0).clamp(min=1)
rec = tp / Y.sum(0)
print(prec, rec, (2 * prec * rec / (prec + rec + 1e-8)).mean())
print(probs.ge(0.5).long().sum(1), torch.topk(probs, k=2, dim=1).indices, probs.round(decimals=2))
thresholds = torch.tensor([0.3, 0.5, 0.7])
print((probs >= thresholds).to(torch.uint8))
print(F.multilabel_soft_margin_loss(model(X), Y), nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1., 2., 1.]))(model(X), Y))
targets_idx = torch.tensor([[0, 2, -1], [1, -1, 0], [0, 1, 2], [-1, 0, 0], [0, 2, -1], [1, 2, -1]])
print(F.multilabel_margin_loss(model(X), targets_idx), nn.MultiLabelMarginLoss(reduction="none")(model(X), targets_idx))
try:
    crit(model(X), Y[:, :2])
except ValueError as e:
    print(type(e).__name__, e)
try:
    F.binary_cross_entropy(probs, Y * 2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.binary_cross_entropy(model(X), Y)
except RuntimeError as e:
    print(type(e).__name__, e)

# ordinal regression: ratings 0..3, K-1 cumulative binary targets y > k
ratings = torch.tensor([0, 1, 3, 2, 2, 0, 3, 1])
feat = torch.linspace(-1.5, 1.5, 8).unsqueeze(1)
K = 4
levels = (ratings.unsqueeze(1) > torch.arange(K - 1)).float()
print(levels)

class Coral(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.fc = nn.Linear(d, 1, bias=False)
        self.biases = nn.Parameter(torch.tensor([1.0, 0.0, -1.0])[: k - 1].clone())

    def forward(self, x):
        return self.fc(x) + self.biases

coral = Coral(1, K)
with torch.no_grad():
    coral.fc.weight.fill_(0.5)
print(coral, [n for n, _ in coral.named_parameters()])
opt = torch.optim.Adam(coral.parameters(), lr=0.1)
for step in range(50):
    opt.zero_grad()
    logits = coral(feat)
    loss = F.binary_cross_entropy_with_logits(logits, levels, reduction="none").sum(1).mean()
    loss.backward()
    opt.step()
print(f"ordinal loss {loss.item():.4f}", logits.shape, logits.grad_fn.name())
cum = torch.sigmoid(coral(feat))
pred_rank = (cum > 0.5).sum(1)
print(pred_rank, pred_rank.dtype, (pred_rank == ratings).float().mean())
print(torch.all(cum[:, :-1] >= cum[:, 1:]).item(), (pred_rank - ratings).abs().float().mean())
class_probs = torch.cat([1 - cum[:, :1], cum[:, :-1] - cum[:, 1:], cum[:, -1:]], dim=1)
print(class_probs.sum(1).allclose(torch.ones(8)), class_probs.argmax(1))
