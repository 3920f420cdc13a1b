# A CIFAR-style CNN (Conv2d/BatchNorm2d/MaxPool2d/AdaptiveAvgPool2d/Dropout modules) compiled with
# `model = torch.compile(model)` and trained with AdamW(weight_decay=...); then eval() for the
# accuracy, and a check that Dropout in train mode zeroes / rescales while eval is the identity.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(2, 6, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(6),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(6, 8, kernel_size=3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((1, 1)),
        )
        self.dropout = nn.Dropout(p=0.5)
        self.classifier = nn.Linear(8, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(self.dropout(x))


model = ConvNet()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.3 + (1.0 if "weight" in name and p.dim() == 1 else 0.0))

grid = torch.linspace(-1, 1, 8)
yy, xx = torch.meshgrid(grid, grid, indexing="ij")
imgs, labels = [], []
for k in range(9):
    c = k % 3
    a = torch.sin((c + 1) * 2 * xx + 0.1 * k)
    b = torch.cos((c + 1) * 2 * yy - 0.1 * k)
    imgs.append(torch.stack([a, b]))
    labels.append(c)
X = torch.stack(imgs)
Y = torch.tensor(labels)

model = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.1)
# train without dropout noise first (users set p=0 to debug), then check the random behaviour separately
model.dropout.p = 0.0
model.train()
for epoch in range(15):
    opt.zero_grad()
    logits = model(X)
    loss = F.cross_entropy(logits, Y)
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.4f}")

bn = model.features[1]
print("bn running_mean", torch.round(bn.running_mean, decimals=3))
print("num_batches_tracked", bn.num_batches_tracked.item())
print("weight norm", f"{model.classifier.weight.norm().item():.4f}")

model.eval()
with torch.no_grad():
    preds = model(X).argmax(dim=1)
acc = (preds == Y).float().mean().item()
print("preds", preds.tolist(), f"acc {acc:.3f}")

# dropout behaviour with the compiled model: p back to 0.5
model.dropout.p = 0.5
with torch.no_grad():
    e1 = model(X)
    e2 = model(X)
print("eval deterministic", torch.equal(e1, e2))
feats = torch.linspace(0.5, 1.5, 24).view(3, 8)
model.train()
d = model.dropout(feats)
kept = d != 0
print("train dropout rescales", torch.allclose(d[kept], feats[kept] * 2.0))
model.eval()
print("eval dropout identity", torch.equal(model.dropout(feats), feats))
print("training flags", model.training, model._orig_mod.training, model.dropout.training)
