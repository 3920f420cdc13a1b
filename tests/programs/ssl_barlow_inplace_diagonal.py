# Barlow Twins loss exactly as the official repo writes it: c.div_(batch) in place, then
# torch.diagonal(c).add_(-1).pow_(2).sum() on a view, off_diagonal(c).pow_(2).sum(), lambd weighting,
# BatchNorm1d(affine=False) normalisation and a few SGD steps with the encoder gradient printed.
import torch
import torch.nn as nn


def off_diagonal(x):
    n, m = x.shape
    assert n == m
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()


class BarlowTwins(nn.Module):
    def __init__(self, lambd=0.0051):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 8), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(8, 5, bias=False), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 4, bias=False))
        self.bn = nn.BatchNorm1d(4, affine=False)
        self.lambd = lambd

    def forward(self, y1, y2):
        z1 = self.projector(self.backbone(y1))
        z2 = self.projector(self.backbone(y2))
        c = self.bn(z1).T @ self.bn(z2)
        c.div_(y1.shape[0])
        on_diag = torch.diagonal(c).add_(-1).pow_(2).sum()
        off_diag = off_diagonal(c).pow_(2).sum()
        return on_diag + self.lambd * off_diag, c


model = BarlowTwins()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.4)

x = torch.sin(torch.arange(10 * 6, dtype=torch.float32) * 0.23).view(10, 6)
y1 = torch.flip(x, dims=[1]) + 0.05
y2 = torch.roll(x, shifts=1, dims=0) * 0.9

loss, c = model(y1, y2)
print("loss", f"{loss.item():.4f}", loss.grad_fn.name())
print("c shape", tuple(c.shape), "c grad_fn", type(c.grad_fn).__name__)
print("c", c.detach().round(decimals=3))
loss.backward()
print("backbone weight grad", model.backbone[0].weight.grad[:2].round(decimals=4))
print("bn grads", model.projector[1].weight.grad.round(decimals=4))

opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for step in range(8):
    opt.zero_grad()
    loss, _ = model(y1, y2)
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, f"{loss.item():.4f}")
print("running_mean", model.bn.running_mean.round(decimals=3))
print("num_batches_tracked", model.bn.num_batches_tracked)
