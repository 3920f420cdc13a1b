# Flipout (Wen et al. 2018): pseudo-independent weight perturbations per example via random sign
# vectors, out = x @ W_mu^T + ((x * s_in) @ dW^T) * s_out; signs here come from a fixed pattern
# (torch.sign of a sine), checked against explicit per-example weights built with torch.bmm.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlipoutLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.cos(torch.arange(n_out * n_in, dtype=torch.float32)).reshape(n_out, n_in) * 0.4)
        self.weight_rho = nn.Parameter(torch.full((n_out, n_in), -2.0))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def perturbation(self, eps):
        return F.softplus(self.weight_rho) * eps

    def forward(self, x, eps, s_in, s_out):
        mean_out = F.linear(x, self.weight_mu, self.bias)
        pert_out = F.linear(x * s_in, self.perturbation(eps)) * s_out
        return mean_out + pert_out


def signs(n, m, k):
    s = torch.sign(torch.sin(torch.arange(n * m, dtype=torch.float32) * 1.9 + k)).reshape(n, m)
    return torch.where(s == 0, torch.ones_like(s), s)


B, n_in, n_out = 5, 4, 3
layer = FlipoutLinear(n_in, n_out)
x = torch.linspace(-1, 1, B * n_in).reshape(B, n_in)
eps = torch.sin(torch.arange(n_out * n_in, dtype=torch.float32) * 0.7).reshape(n_out, n_in)
s_in, s_out = signs(B, n_in, 0), signs(B, n_out, 1)
print("signs", s_in[0], s_out[:, 0])

out = layer(x, eps, s_in, s_out)
print("flipout", out.detach().round(decimals=4))

# explicit per-example weights W_b = W_mu + dW * (s_out_b s_in_b^T)
dW = layer.perturbation(eps)
W_b = layer.weight_mu + dW * torch.einsum("bo,bi->boi", s_out, s_in)
explicit = torch.bmm(W_b, x.unsqueeze(-1)).squeeze(-1) + layer.bias
print("matches explicit", torch.allclose(out, explicit, atol=1e-6), W_b.shape)

# all-ones signs reduce to the shared-weight reparameterisation
shared = layer(x, eps, torch.ones(B, n_in), torch.ones(B, n_out))
print("shared", torch.allclose(shared, F.linear(x, layer.weight_mu + dW, layer.bias)))

target = torch.arange(B) % n_out
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
for step in range(15):
    s_in, s_out = signs(B, n_in, step), signs(B, n_out, step + 7)
    logits = layer(x, eps * ((-1) ** step), s_in, s_out)
    kl = 0.5 * (F.softplus(layer.weight_rho) ** 2 + layer.weight_mu ** 2 - 1
                - 2 * torch.log(F.softplus(layer.weight_rho))).sum()
    loss = F.cross_entropy(logits, target) + kl / 100
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} kl {kl.item():.3f}")
print("grads", {n: tuple(p.grad.shape) for n, p in layer.named_parameters()})
print("sigma", F.softplus(layer.weight_rho).detach().round(decimals=4))
