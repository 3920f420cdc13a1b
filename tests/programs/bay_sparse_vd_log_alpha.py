# Sparse variational dropout (Molchanov et al. 2017): per-weight log_sigma2, log_alpha =
# log_sigma2 - log(theta^2) clamped, the sigmoid/softplus KL approximation, local
# reparameterisation with fixed noise, and pruning weights with log_alpha > 3 at eval time.
import torch
import torch.nn as nn
import torch.nn.functional as F

K1, K2, K3 = 0.63576, 1.87320, 1.48695


class LinearSVDO(nn.Module):
    def __init__(self, n_in, n_out, threshold=3.0):
        super().__init__()
        self.theta = nn.Parameter(torch.zeros(n_out, n_in))
        self.log_sigma2 = nn.Parameter(torch.full((n_out, n_in), -10.0))
        self.bias = nn.Parameter(torch.zeros(n_out))
        self.threshold = threshold
        self.noise = None

    @property
    def log_alpha(self):
        la = self.log_sigma2 - 2.0 * torch.log(1e-16 + self.theta.abs())
        return torch.clamp(la, -10, 10)

    def forward(self, x):
        if self.training:
            mu = F.linear(x, self.theta, self.bias)
            var = F.linear(x * x, self.log_alpha.exp() * self.theta * self.theta)
            return mu + torch.sqrt(var + 1e-8) * self.noise
        return F.linear(x, self.theta * (self.log_alpha < self.threshold).float(), self.bias)

    def kl(self):
        la = self.log_alpha
        return -(K1 * torch.sigmoid(K2 + K3 * la) - 0.5 * F.softplus(-la) - K1).sum()

    def extra_repr(self):
        return f"in={self.theta.shape[1]}, out={self.theta.shape[0]}, threshold={self.threshold}"


torch.manual_seed(0)
net = nn.Sequential(LinearSVDO(6, 10), nn.ReLU(), LinearSVDO(10, 2))
with torch.no_grad():
    for m in net:
        if isinstance(m, LinearSVDO):
            n = m.theta.numel()
            m.theta.copy_(0.4 * torch.sin(torch.arange(n, dtype=torch.float32) * 0.91).reshape(m.theta.shape))
            m.log_sigma2.copy_(torch.linspace(-8, 2, n).reshape(m.theta.shape))
print(net)

x = torch.stack([torch.linspace(-1, 1, 40) * k for k in (1, -0.5, 0.2, 0.0, 0.3, 1.2)], dim=1)
x[:, 3] = torch.cos(torch.arange(40.0))
y = (x[:, 0] + 0.3 * x[:, 3] > 0).long()
N = x.shape[0]

opt = torch.optim.Adam(net.parameters(), lr=0.02)
for step in range(30):
    for j, m in enumerate(mm for mm in net if isinstance(mm, LinearSVDO)):
        m.noise = torch.sin(torch.arange(N * m.theta.shape[0], dtype=torch.float32) * 0.37 + step + j).reshape(N, -1)
    kl = sum(m.kl() for m in net if isinstance(m, LinearSVDO))
    ce = F.cross_entropy(net(x), y)
    beta = min(1.0, step / 20)
    loss = ce + beta * kl / N
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} ce {ce.item():.4f} kl {kl.item():.3f}")

net.eval()
for i, m in enumerate(mm for mm in net if isinstance(mm, LinearSVDO)):
    la = m.log_alpha.detach()
    kept = (la < m.threshold).float()
    print(f"layer {i}: sparsity {1 - kept.mean().item():.3f} log_alpha range {la.min().item():.2f}..{la.max().item():.2f}")
with torch.no_grad():
    acc = (net(x).argmax(1) == y).float().mean()
print("eval acc", f"{acc.item():.3f}")
la = torch.linspace(-10, 10, 5)
print("kl approx curve", (-(K1 * torch.sigmoid(K2 + K3 * la) - 0.5 * F.softplus(-la) - K1)).round(decimals=4))
t = torch.tensor([-12.0, -10.0, 0.0, 10.0, 12.0], requires_grad=True)
torch.clamp(t, -10, 10).sum().backward()
print("clamp grad", t.grad)
