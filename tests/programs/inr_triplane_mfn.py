# A tri-plane feature field sampled with F.grid_sample (align_corners=True, border padding)
# decoded by a multiplicative filter network (MFN / FourierNet: products of sine filters),
# trained to an analytic 3-D occupancy with BCEWithLogits, then a gradient check on coordinates.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TriPlane(nn.Module):
    def __init__(self, c=4, res=8):
        super().__init__()
        base = torch.arange(3 * c * res * res, dtype=torch.float32).view(3, c, res, res)
        self.planes = nn.Parameter(0.1 * torch.sin(base * 0.37))

    def forward(self, p):  # p: (N, 3) in [-1, 1]
        pairs = [p[:, [0, 1]], p[:, [0, 2]], p[:, [1, 2]]]
        feats = []
        for k, uv in enumerate(pairs):
            grid = uv.view(1, -1, 1, 2)
            f = F.grid_sample(self.planes[k:k + 1], grid, mode="bilinear", padding_mode="border", align_corners=True)
            feats.append(f.squeeze(0).squeeze(-1).t())
        return sum(feats)


class MFN(nn.Module):
    def __init__(self, in_f, hidden=16, n_layers=3, out_f=1):
        super().__init__()
        self.filters = nn.ModuleList([nn.Linear(in_f, hidden) for _ in range(n_layers)])
        self.linears = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_layers - 1)])
        self.out = nn.Linear(hidden, out_f)
        with torch.no_grad():
            for i, m in enumerate(list(self.filters) + list(self.linears) + [self.out]):
                m.weight.copy_(torch.cos(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.51 + i).view_as(m.weight)
                               * (1.5 if m in self.filters else 0.3))
                m.bias.copy_(torch.linspace(-0.5, 0.5, m.out_features))

    def forward(self, x):
        z = torch.sin(self.filters[0](x))
        for filt, lin in zip(self.filters[1:], self.linears):
            z = torch.sin(filt(x)) * lin(z)
        return self.out(z)


tri, dec = TriPlane(), MFN(4)
g = torch.linspace(-0.9, 0.9, 5)
pts = torch.cartesian_prod(g, g, g)
print("points", tuple(pts.shape), pts[:2].tolist())
occ = (pts.norm(dim=-1) < 0.7).float().unsqueeze(-1)
print("occupied:", int(occ.sum().item()), "of", occ.numel())
opt = torch.optim.Adam(list(tri.parameters()) + list(dec.parameters()), lr=1e-2)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
for step in range(25):
    opt.zero_grad()
    logits = dec(tri(pts))
    loss = crit(logits, occ)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 24:
        acc = ((logits > 0).float() == occ).float().mean()
        print(f"step {step:2d} bce {loss.item():.4f} acc {acc.item():.3f}")
print("plane grad norms", [round(v, 4) for v in tri.planes.grad.flatten(1).norm(dim=1).tolist()])
q = torch.tensor([[0.1, -0.2, 0.3], [0.5, 0.5, -0.5]], requires_grad=True)
(dq,) = torch.autograd.grad(dec(tri(q)).sum(), q)
print("d logit / d xyz", dq.round(decimals=3))
