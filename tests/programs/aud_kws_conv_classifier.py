# A keyword-spotting style classifier on synthetic tones: log-energy features from framed signals,
# Conv1d + BatchNorm1d + MaxPool1d + AdaptiveAvgPool1d global pooling, CrossEntropy, SGD w/ momentum.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def make_batch():
    t = torch.arange(256, dtype=torch.float32) / 256
    sigs, labels = [], []
    for cls, f in enumerate((4.0, 9.0, 17.0)):
        for k in range(4):
            phase = 0.3 * k
            amp = 0.5 + 0.1 * k
            sigs.append(amp * torch.sin(2 * math.pi * f * t + phase) + 0.05 * torch.cos(2 * math.pi * 40 * t * (k + 1)))
            labels.append(cls)
    return torch.stack(sigs), torch.tensor(labels)

def features(wave, n=32, hop=16):
    frames = wave.unfold(-1, n, hop) * torch.hamming_window(n, periodic=False)
    k = torch.arange(12, dtype=torch.float32).unsqueeze(1) + 1
    basis = torch.cos(2 * math.pi * k * torch.arange(n, dtype=torch.float32) / n)
    spec = (frames @ basis.T).abs()
    return torch.log(spec.clamp_min(1e-4)).transpose(1, 2)  # (B, 12, T)

x, y = make_batch()
feats = features(x)
print(x.shape, feats.shape, y.tolist())

model = nn.Sequential(
    nn.Conv1d(12, 8, 3, padding=1), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(8, 8, 3, padding=1, dilation=1), nn.ReLU(),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 3),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 0.2 * i).reshape(p.shape))
print(model)
print(sum(p.numel() for p in model.parameters()))

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(25):
    model.train()
    logits = model(feats)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 6 == 0:
        acc = (logits.argmax(1) == y).float().mean().item()
        print(f"step {step} loss {loss.item():.3f} acc {acc:.2f}")
model.eval()
with torch.no_grad():
    pred = model(feats).argmax(1)
print("eval acc", (pred == y).float().mean().item() >= 0.5, pred.shape)
bn = model[1]
print(bn.num_batches_tracked, bn.running_mean.shape, bn.running_var.min().item() > 0)
print(model[3], model[6](feats[:, :8]).shape)
