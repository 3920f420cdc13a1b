# torch.utils.checkpoint: recompute a block in backward; gradients equal plain backward.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

block = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 4))
with torch.no_grad():
    for i, p in enumerate(block.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view(p.shape) * 0.5)
x = torch.linspace(-1, 1, 8).view(2, 4).requires_grad_()

plain = block(x).pow(2).sum()
plain.backward()
grads_plain = [p.grad.clone() for p in block.parameters()] + [x.grad.clone()]
block.zero_grad()
x.grad = None

out = checkpoint(block, x, use_reentrant=False)
out.pow(2).sum().backward()
grads_ckpt = [p.grad for p in block.parameters()] + [x.grad]
print(all(torch.allclose(a, b, atol=1e-6) for a, b in zip(grads_plain, grads_ckpt)))
print(out.shape, out.requires_grad, f"{plain.item():.4f}")
