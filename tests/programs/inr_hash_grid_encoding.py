# A tiny Instant-NGP style multiresolution hash grid: integer corner coordinates,
# spatial hash with large primes via bitwise_xor and remainder on int64, bilinear weights,
# embedding lookup with gather over a learnable table, trained with Adam.
import torch
import torch.nn as nn

PRIMES = torch.tensor([1, 2654435761], dtype=torch.int64)


class HashGrid(nn.Module):
    def __init__(self, n_levels=3, table_size=64, feat=2, base_res=4, growth=2.0):
        super().__init__()
        self.table_size = table_size
        self.res = [int(base_res * growth ** l) for l in range(n_levels)]
        self.tables = nn.ParameterList(
            nn.Parameter(1e-2 * torch.cos(torch.arange(table_size * feat, dtype=torch.float32) * (l + 1.3)).view(table_size, feat))
            for l in range(n_levels))

    def hash(self, ij):
        h = ij * PRIMES
        return torch.bitwise_xor(h[..., 0], h[..., 1]) % self.table_size

    def forward(self, x):  # x in [0,1]^2, shape (N, 2)
        feats = []
        for res, table in zip(self.res, self.tables):
            pos = x * (res - 1)
            lo = pos.floor().long()
            w = pos - lo
            out = 0
            for dx in (0, 1):
                for dy in (0, 1):
                    corner = lo + torch.tensor([dx, dy])
                    idx = self.hash(corner)
                    wx = w[:, 0] if dx else 1 - w[:, 0]
                    wy = w[:, 1] if dy else 1 - w[:, 1]
                    out = out + (wx * wy).unsqueeze(-1) * table[idx]
            feats.append(out)
        return torch.cat(feats, -1)


enc = HashGrid()
print("resolutions:", enc.res)
corner = torch.tensor([[0, 0], [1, 0], [3, 7], [15, 15]])
print("hashes:", enc.hash(corner).tolist(), enc.hash(corner).dtype)
print("xor:", torch.bitwise_xor(torch.tensor([5, -3]), torch.tensor([3, 7])), (torch.tensor([6]) ^ 3))
print("int64 mult:", (torch.tensor([123456789]) * 2654435761).tolist(), torch.tensor([-7]) % 64)

u = torch.linspace(0, 1, 9)
gy, gx = torch.meshgrid(u, u, indexing="ij")
x = torch.stack([gx, gy], -1).reshape(-1, 2)
target = (torch.sin(6 * x[:, :1]) * torch.cos(4 * x[:, 1:]))
head = nn.Linear(2 * 3, 1)
with torch.no_grad():
    head.weight.copy_(torch.linspace(-1, 1, 6).unsqueeze(0))
    head.bias.fill_(0.05)
params = list(enc.parameters()) + list(head.parameters())
print("n tables:", len(enc.tables), "params:", sum(p.numel() for p in params))
opt = torch.optim.Adam(params, lr=5e-2, eps=1e-15)
for step in range(30):
    opt.zero_grad()
    loss = ((head(enc(x)) - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} loss {loss.item():.4f}")
used = (enc.tables[0].grad.abs().sum(-1) > 0).sum().item()
print("table-0 rows with gradient:", used, "of", enc.table_size)
