# Evaluating a self-supervised encoder: the weighted kNN monitor from the MoCo/SimCLR colab
# (topk over a feature bank, gather of bank labels, scatter one-hot, exp(sim / t) votes, argsort),
# followed by a linear probe on a frozen backbone (requires_grad_(False), eval(), inference_mode).
import torch
import torch.nn as nn
import torch.nn.functional as F


def knn_predict(feature, feature_bank, feature_labels, classes, knn_k, knn_t):
    sim_matrix = torch.mm(feature, feature_bank)
    sim_weight, sim_indices = sim_matrix.topk(k=knn_k, dim=-1)
    sim_labels = torch.gather(feature_labels.expand(feature.size(0), -1), dim=-1, index=sim_indices)
    sim_weight = (sim_weight / knn_t).exp()
    one_hot_label = torch.zeros(feature.size(0) * knn_k, classes, device=sim_labels.device)
    one_hot_label = one_hot_label.scatter(dim=-1, index=sim_labels.view(-1, 1), value=1.0)
    pred_scores = torch.sum(one_hot_label.view(feature.size(0), -1, classes) * sim_weight.unsqueeze(dim=-1), dim=1)
    pred_labels = pred_scores.argsort(dim=-1, descending=True)
    return pred_labels, pred_scores


backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 6))
with torch.no_grad():
    for i, p in enumerate(backbone.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.7)

t = torch.linspace(0, 1, 12)
train_x = torch.stack([torch.sin(3 * t), torch.cos(2 * t), t, t ** 2], dim=1)
train_y = torch.tensor([0, 1, 2] * 4)
train_x = train_x + train_y.float().unsqueeze(1) * 0.5
test_x = train_x[::3] + 0.05
test_y = train_y[::3]

backbone.eval()
with torch.inference_mode():
    feature_bank = F.normalize(backbone(train_x), dim=1).t().contiguous()
    feature = F.normalize(backbone(test_x), dim=1)
    pred_labels, pred_scores = knn_predict(feature, feature_bank, train_y.unsqueeze(0), 3, knn_k=5, knn_t=0.1)
print("bank", tuple(feature_bank.shape), feature_bank.is_inference(), feature_bank.requires_grad)
print("pred", pred_labels[:, 0], "top1", (pred_labels[:, 0] == test_y).float().mean().item())
print("scores", (pred_scores / pred_scores.sum(dim=1, keepdim=True)).round(decimals=3))

try:
    w = nn.Parameter(torch.ones(6, 3))
    (feature @ w).sum().backward()
    print("backward through inference tensor ok", w.grad.shape)
except Exception as e:
    print(type(e).__name__, e)

backbone.requires_grad_(False)
classifier = nn.Linear(6, 3)
with torch.no_grad():
    classifier.weight.copy_(torch.sin(torch.arange(18, dtype=torch.float32)).view(3, 6) * 0.3)
    classifier.bias.zero_()
opt = torch.optim.SGD(classifier.parameters(), lr=0.5, momentum=0.9, nesterov=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
for epoch in range(10):
    with torch.no_grad():
        feats = backbone(train_x)
    logits = classifier(feats)
    loss = F.cross_entropy(logits, train_y, label_smoothing=0.1)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 3 == 0:
        acc = (logits.argmax(1) == train_y).float().mean()
        print(epoch, f"{loss.item():.4f}", f"acc={acc.item():.3f}", f"lr={sched.get_last_lr()[0]:.4f}")
print("backbone grads", [p.grad for p in backbone.parameters()])
print("trainable", sum(p.numel() for p in backbone.parameters() if p.requires_grad), sum(p.numel() for p in classifier.parameters()))
