# Masked autoregressive flow (MADE masks as in Papamakarios et al. / karpathy/pytorch-made):
# degree-based masks registered as buffers, masked linear layers, autoregressive check via the
# Jacobian, MAF log-likelihood with reversed orderings, and inverse by sequential passes.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent


class MaskedLinear(nn.Linear):
    def __init__(self, n_in, n_out):
        super().__init__(n_in, n_out)
        self.register_buffer("mask", torch.ones(n_out, n_in))

    def set_mask(self, mask):
        self.mask.data.copy_(mask.T.float())

    def forward(self, x):
        return F.linear(x, self.mask * self.weight, self.bias)


class MADE(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.d = d
        self.l1, self.l2, self.l3 = MaskedLinear(d, h), MaskedLinear(h, h), MaskedLinear(h, 2 * d)
        deg_in = torch.arange(1, d + 1)
        deg_h = torch.arange(h) % (d - 1) + 1
        self.l1.set_mask(deg_in[:, None] <= deg_h[None, :])
        self.l2.set_mask(deg_h[:, None] <= deg_h[None, :])
        out_deg = torch.cat([deg_in, deg_in])
        self.l3.set_mask(deg_h[:, None] < out_deg[None, :])

    def forward(self, x):
        h = F.relu(self.l2(F.relu(self.l1(x))))
        mu, alpha = self.l3(h).chunk(2, dim=-1)
        return mu, torch.tanh(alpha)


class MAF(nn.Module):
    def __init__(self, d, h, n_layers):
        super().__init__()
        self.layers = nn.ModuleList([MADE(d, h) for _ in range(n_layers)])
        self.base = Independent(Normal(torch.zeros(d), torch.ones(d)), 1)

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            mu, alpha = layer(x)
            x = (x - mu) * torch.exp(-alpha)
            log_det = log_det - alpha.sum(-1)
            x = x.flip(-1)
        return x, log_det

    def log_prob(self, x):
        z, log_det = self(x)
        return self.base.log_prob(z) + log_det

    def inverse(self, z):
        for layer in reversed(self.layers):
            z = z.flip(-1)
            x = torch.zeros_like(z)
            for i in range(z.shape[-1]):
                mu, alpha = layer(x)
                x[:, i] = mu[:, i] + z[:, i] * torch.exp(alpha[:, i])
            z = x
        return z


d = 3
flow = MAF(d, 8, 2)
with torch.no_grad():
    for i, (name, p) in enumerate(flow.named_parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view(p.shape))
print(flow.layers[0].l1.mask)
print(flow.layers[0].l3.mask.sum(1))
print([k for k in flow.state_dict().keys()][:5])

x0 = torch.tensor([[0.3, -0.2, 0.5]], requires_grad=True)
mu, alpha = flow.layers[0](x0)
jac = torch.stack([torch.autograd.grad(mu[0, i], x0, retain_graph=True)[0][0] for i in range(d)])
print((jac != 0).int())
print(torch.triu(jac).abs().sum().item() == 0)

t = torch.linspace(-1, 1, 32)
data = torch.stack([t, t ** 2 - 0.3, torch.sin(3 * t)], 1)
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
for step in range(30):
    loss = -flow.log_prob(data).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 29:
        print(f"step {step:2d} nll {loss.item():.4f} bits/dim {loss.item() / (d * math.log(2)):.4f}")

with torch.no_grad():
    z, _ = flow(data[:4])
    x_rec = flow.inverse(z)
    print(torch.allclose(x_rec, data[:4], atol=1e-4))
    zs = torch.cos(torch.arange(6, dtype=torch.float32)).view(2, 3)
    print(flow.inverse(zs).shape)
print(flow.layers[1].l2.weight.grad.shape, (flow.layers[1].l2.weight.grad * (1 - flow.layers[1].l2.mask)).abs().sum().item())
