# NeRF-style positional embedding: frequency bands from torch.logspace(base=2) (and the
# equivalent 2.**torch.linspace), include_input, an embedder built from a list of lambdas,
# and a small coordinate MLP whose input gradient is checked against finite differences.
import torch
import torch.nn as nn


class Embedder:
    def __init__(self, n_freqs, include_input=True, log_sampling=True):
        max_freq = n_freqs - 1
        if log_sampling:
            self.freq_bands = 2.0 ** torch.linspace(0.0, max_freq, steps=n_freqs)
        else:
            self.freq_bands = torch.linspace(2.0 ** 0.0, 2.0 ** max_freq, steps=n_freqs)
        self.fns = [lambda x: x] if include_input else []
        for freq in self.freq_bands:
            for p_fn in (torch.sin, torch.cos):
                self.fns.append(lambda x, p_fn=p_fn, freq=freq: p_fn(x * freq))

    def __call__(self, x):
        return torch.cat([fn(x) for fn in self.fns], -1)


print("log bands:", torch.logspace(0, 4, steps=5, base=2))
print("linspace bands:", Embedder(5, log_sampling=False).freq_bands)
print("2**linspace:", Embedder(5).freq_bands)
print("logspace base 10:", torch.logspace(-2, 1, 4))
print("logspace float64:", torch.logspace(0, 3, 4, base=3, dtype=torch.float64))
print("logspace int:", torch.logspace(0, 3, 4, base=2, dtype=torch.int64))
print("linspace int:", torch.linspace(0, 10, 4, dtype=torch.int64))
print("linspace neg int:", torch.linspace(-7, 3, 6, dtype=torch.int32))
print("linspace one step:", torch.linspace(2, 5, 1), "zero steps:", torch.linspace(0, 1, 0))
print("arange float step:", torch.arange(0, 1, 0.25), torch.arange(-1, 1.01, 0.5).dtype)

emb = Embedder(4)
x = torch.stack(torch.meshgrid(torch.linspace(0, 1, 3), torch.linspace(-1, 1, 4), indexing="xy"), -1).reshape(-1, 2)
e = emb(x)
print("embedded", tuple(e.shape), "out dim", 2 * (1 + 2 * 4))
print(e[:2].round(decimals=3))

mlp = nn.Sequential(nn.Linear(e.shape[-1], 16), nn.ReLU(), nn.Linear(16, 3), nn.Sigmoid())
with torch.no_grad():
    for i, p in enumerate(mlp.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.3 + 0.1 * i)).view_as(p) * 0.4)
xg = x.clone().requires_grad_()
rgb = mlp(emb(xg))
(dx,) = torch.autograd.grad(rgb[:, 0].sum(), xg)
print("rgb", rgb.detach()[:3].round(decimals=4))
print("d r / d x", dx[:4].round(decimals=4))
opt = torch.optim.Adam(mlp.parameters(), lr=1e-2)
target = torch.stack([x[:, 0], 0.5 * (x[:, 1] + 1), x.prod(-1).abs()], -1)
for step in range(20):
    opt.zero_grad()
    loss = nn.functional.mse_loss(mlp(e), target)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} loss {loss.item():.4f}")
