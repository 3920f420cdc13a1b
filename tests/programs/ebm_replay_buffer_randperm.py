# JEM-style replay buffer for short-run Langevin: random rows chosen with torch.randperm(generator=g),
# gathered with index_select, 5% reinitialised, written back with index_copy_; only RNG-free facts
# are printed for the random parts, the sampler itself runs on a fixed index pattern.
import torch
import torch.nn as nn

torch.set_printoptions(precision=3, sci_mode=False)

energy = nn.Sequential(nn.Linear(2, 10), nn.ELU(), nn.Linear(10, 1))
with torch.no_grad():
    for i, p in enumerate(energy.parameters()):
        p.copy_(0.7 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + 2 * i).view_as(p))

buffer = torch.stack([torch.linspace(-1, 1, 20), torch.cos(torch.arange(20.0) * 0.4)], 1)
g = torch.Generator().manual_seed(1234)
perm = torch.randperm(buffer.shape[0], generator=g)
print(perm.dtype, perm.shape, sorted(perm.tolist()) == list(range(20)))
batch = buffer.index_select(0, perm[:8])
print(batch.shape, torch.isin(batch[:, 0], buffer[:, 0]).all().item())
print(torch.randperm(0, generator=g), torch.randperm(1, generator=g))


def langevin(x, steps=6, step=0.05, noise=0.005):
    x = x.clone().detach()
    for k in range(steps):
        x.requires_grad_(True)
        e = energy(x).sum()
        (gx,) = torch.autograd.grad(e, x)
        x = x.detach()
        x.add_(gx, alpha=-step).add_(noise * torch.cos(torch.arange(x.numel(), dtype=x.dtype).view_as(x) * (k + 1)))
        x.clamp_(-1.5, 1.5)
    return x


fixed = torch.tensor([3, 17, 5, 11, 0, 8, 19, 2])
reinit = torch.tensor([True, False, False, False, False, False, False, True])
for it in range(4):
    idx = (fixed + it * 3) % buffer.shape[0]
    start = buffer.index_select(0, idx)
    fresh = torch.linspace(-1, 1, 16).view(8, 2) * 0.5
    start = torch.where(reinit.unsqueeze(1), fresh, start)
    samples = langevin(start)
    buffer.index_copy_(0, idx, samples)
    e_pos = energy(buffer[:4]).mean()
    e_neg = energy(samples).mean()
    print(it, f"e_pos={e_pos.item():.4f} e_neg={e_neg.item():.4f}", samples.requires_grad, samples.is_leaf)

print(buffer[::4])
big = torch.cat([buffer, samples], 0)
print(big.shape, big.index_select(0, torch.tensor([20, 27])))
keep = big[torch.randperm(big.shape[0], generator=torch.Generator().manual_seed(7))[:20]]
print(keep.shape, keep.dtype)
try:
    buffer.index_select(0, torch.tensor([25]))
except IndexError as e:
    print(type(e).__name__, e)
try:
    buffer.index_select(0, torch.tensor([1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
