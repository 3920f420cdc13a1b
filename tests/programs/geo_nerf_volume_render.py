# NeRF-style ray machinery: camera rays from a pinhole model, stratified samples with fixed
# offsets, positional encoding, alpha compositing with an exclusive torch.cumprod, expected depth,
# and hierarchical (inverse-CDF) resampling with torch.searchsorted + gather.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4, sci_mode=False)

H, W, focal = 3, 4, 2.0
i, j = torch.meshgrid(torch.arange(W, dtype=torch.float32), torch.arange(H, dtype=torch.float32), indexing="xy")
dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
c2w = torch.tensor([[1.0, 0.0, 0.0, 0.1], [0.0, 0.9950, -0.0998, 0.2], [0.0, 0.0998, 0.9950, 3.0]])
rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
rays_o = c2w[:3, -1].expand(rays_d.shape)
print("rays", rays_o.shape, rays_d.shape)
print(rays_d[1])
rays_d = rays_d.reshape(-1, 3)
rays_o = rays_o.reshape(-1, 3)

near, far, N = 1.0, 5.0, 16
t_vals = torch.linspace(0.0, 1.0, steps=N)
z_vals = near * (1.0 - t_vals) + far * t_vals
z_vals = z_vals.expand(rays_d.shape[0], N)
mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
upper = torch.cat([mids, z_vals[..., -1:]], -1)
lower = torch.cat([z_vals[..., :1], mids], -1)
t_rand = (torch.arange(N, dtype=torch.float32) * 0.618) % 1.0
z_vals = lower + (upper - lower) * t_rand
pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
print("pts", pts.shape, pts[0, :2])


def posenc(x, L=4):
    out = [x]
    for k in range(L):
        out += [torch.sin(2.0 ** k * x), torch.cos(2.0 ** k * x)]
    return torch.cat(out, -1)


class TinyNeRF(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(27, 32)
        self.l2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(posenc(x))))


net = TinyNeRF()
with torch.no_grad():
    for k, p in enumerate(net.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.13 + k).reshape(p.shape))


def render(raw, z_vals, rays_d):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.full_like(dists[..., :1], 1e10)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    rgb = torch.sigmoid(raw[..., :3])
    alpha = 1.0 - torch.exp(-torch.relu(raw[..., 3]) * dists)
    T = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)[..., :-1]
    weights = alpha * T
    return (weights[..., None] * rgb).sum(-2), (weights * z_vals).sum(-1), weights


raw = net(pts)
rgb_map, depth_map, weights = render(raw, z_vals, rays_d)
print("rgb\n", rgb_map[:4])
print("depth", depth_map)
print("acc", weights.sum(-1))


def sample_pdf(bins, weights, n_samples):
    weights = weights + 1e-5
    pdf = weights / torch.sum(weights, -1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    u = torch.linspace(0.0, 1.0, steps=n_samples).expand(list(cdf.shape[:-1]) + [n_samples]).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    matched_shape = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(1).expand(matched_shape), 2, inds_g)
    bins_g = torch.gather(bins.unsqueeze(1).expand(matched_shape), 2, inds_g)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    return bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])


z_mid = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
z_samples = sample_pdf(z_mid, weights[..., 1:-1].detach(), 8)
print("fine samples\n", z_samples[:2])
z_all, order = torch.sort(torch.cat([z_vals, z_samples], -1), -1)
print("sorted", z_all.shape, order[0, :10])

target = torch.linspace(0, 1, 36).reshape(12, 3)
opt = torch.optim.Adam(net.parameters(), lr=5e-3)
for step in range(15):
    rgb_map, depth_map, _ = render(net(pts), z_vals, rays_d)
    loss = ((rgb_map - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 14:
        print(step, f"{loss.item():.5f}", f"psnr {(-10.0 * torch.log10(loss)).item():.3f}")
