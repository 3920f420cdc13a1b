# Evaluation helpers decorated with @torch.inference_mode() in a trainer, and the pitfalls users hit
# when reusing their outputs: class-mean prototypes turned into nn.Parameter, backward through cached
# eval features, in-place updates, and the .clone() workaround; also BN stats under inference_mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

encoder = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p))

x = torch.stack([torch.linspace(-1, 1, 9), torch.cos(torch.arange(9.0)), torch.sin(torch.arange(9.0) * 0.5)], 1)
y = torch.arange(9) % 3


@torch.inference_mode()
def class_means(model, inputs, labels, num_classes=3):
    model.eval()
    feats = model(inputs)
    return torch.stack([feats[labels == c].mean(0) for c in range(num_classes)])


means = class_means(encoder, x, y)
print(means.round(decimals=4))
print("inference tensor:", means.is_inference(), "requires_grad:", means.requires_grad)
print("still enabled after call:", torch.is_inference_mode_enabled(), "training:", encoder.training)

try:
    prototypes = nn.Parameter(means)
    print("Parameter created", prototypes.requires_grad)
except RuntimeError as e:
    print(type(e).__name__, e)
prototypes = nn.Parameter(means.clone())
print("from clone:", prototypes.is_inference(), prototypes.requires_grad)

encoder.train()
feats = encoder(x)
try:
    loss = (feats - means[y]).pow(2).sum(1).mean()
    loss.backward()
    print("backward ok")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    means.mul_(0.9)
except RuntimeError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD(list(encoder.parameters()) + [prototypes], lr=0.1)
for step in range(5):
    opt.zero_grad()
    feats = encoder(x)
    logits = -torch.cdist(feats, prototypes) ** 2
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", f"{prototypes.grad.norm().item():.4f}")

with torch.inference_mode():
    val = encoder(x)
    acc = ((-torch.cdist(val, prototypes)).argmax(1) == y).float().mean()
print("val acc", acc, acc.is_inference())
with torch.no_grad():
    nog = encoder(x)
print("no_grad output is_inference:", nog.is_inference(), nog.requires_grad)

bn = nn.BatchNorm1d(3)
with torch.inference_mode():
    bn(x)
print(bn.running_mean.round(decimals=4), bn.num_batches_tracked, bn.running_mean.is_inference())
