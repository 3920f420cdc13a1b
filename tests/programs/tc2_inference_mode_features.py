# Linear probing with a compiled head: features are precomputed from a frozen compiled backbone
# under torch.inference_mode(), then fed to the head's training loop — PyTorch refuses inference
# tensors in autograd (users then .clone() them or switch to torch.no_grad()).
import torch
import torch.nn as nn
import torch.nn.functional as F

backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 6))
head = nn.Linear(6, 2)
for i, m in enumerate([backbone, head]):
    with torch.no_grad():
        for j, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i + j).view_as(p) * 0.5)
backbone.eval().requires_grad_(False)
cbackbone = torch.compile(backbone)
chead = torch.compile(head)

X = torch.stack([torch.cos(torch.linspace(0, 2, 4) * (k + 1)) for k in range(10)])
Y = torch.tensor([k % 2 for k in range(10)])

# sanity check of the pipeline on one batch with normal tensors (compiles the head once)
with torch.no_grad():
    f0 = cbackbone(X[:4])
print("sanity", chead(f0).shape, chead(f0).requires_grad)

with torch.inference_mode():
    feats = cbackbone(X)
print("feats", feats.shape, feats.is_inference(), feats.requires_grad)

opt = torch.optim.SGD(head.parameters(), lr=0.5)
try:
    loss = F.cross_entropy(chead(feats[:4]), Y[:4])
    loss.backward()
    print("trained on inference tensors?!", f"{loss.item():.4f}")
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])
print("head grad after failure", head.weight.grad)

# the fix: clone() outside inference mode gives a normal tensor
feats = feats.clone()
print("cloned", feats.is_inference())
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(chead(feats), Y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")

with torch.inference_mode():
    logits = chead(cbackbone(X))
print("probe acc", (logits.argmax(1) == Y).float().mean().item(), logits.is_inference())
try:
    logits.add_(1)
    print("in-place on inference tensor outside mode: ok?")
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])
