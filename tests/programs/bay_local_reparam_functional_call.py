# Local reparameterisation trick for a Bayesian MLP: sample pre-activations from
# N(x @ mu^T, x^2 @ sigma^2^T) instead of weights, and the weight-sampling variant through
# torch.func.functional_call with a dict of sampled weights; predictive mean over fixed noise.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class LRTLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.zeros(n_out, n_in))
        self.weight_logsig2 = nn.Parameter(torch.full((n_out, n_in), -6.0))
        self.bias = nn.Parameter(torch.zeros(n_out))
        self.register_buffer("noise", torch.zeros(1, n_out), persistent=False)

    def forward(self, x):
        act_mu = F.linear(x, self.weight_mu, self.bias)
        act_var = F.linear(x.pow(2), self.weight_logsig2.exp())
        return act_mu + act_var.clamp_min(1e-8).sqrt() * self.noise

    def kl(self):
        # KL(q || N(0, 1)) per weight, summed
        s2 = self.weight_logsig2.exp()
        return 0.5 * (s2 + self.weight_mu.pow(2) - 1.0 - self.weight_logsig2).sum()


net = nn.Sequential(LRTLinear(2, 8), nn.SiLU(), LRTLinear(8, 1))
with torch.no_grad():
    for name, p in net.named_parameters():
        if "logsig2" in name:
            continue
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + len(name)).reshape(p.shape))
print([n for n, _ in net.named_parameters()])
print("buffers", [n for n, _ in net.named_buffers()], "state_dict", list(net.state_dict().keys()))

x = torch.stack([torch.linspace(-2, 2, 32), torch.linspace(-2, 2, 32).sin()], dim=1)
y = (x[:, :1] * x[:, 1:]).tanh()

opt = torch.optim.Adam(net.parameters(), lr=0.03)
for step in range(30):
    for k, m in enumerate(m for m in net if isinstance(m, LRTLinear)):
        m.noise = torch.cos(torch.arange(m.noise.numel(), dtype=torch.float32) * 2.3 + step + k).reshape(m.noise.shape)
    pred = net(x)
    nll = F.mse_loss(pred, y, reduction="sum") / (2 * 0.1 ** 2)
    kl = sum(m.kl() for m in net if isinstance(m, LRTLinear))
    loss = (nll + kl) / x.shape[0]
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} nll {nll.item():9.3f} kl {kl.item():8.3f}")

# weight-space sampling with functional_call and a fixed set of eps "draws"
base = {n: p.detach() for n, p in net.named_parameters()}


def sample_weights(s):
    out = {}
    for n, p in base.items():
        if n.endswith("weight_mu"):
            stem = n[: -len("weight_mu")]
            eps = torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (s + 1.1)).reshape(p.shape)
            out[n] = p + base[stem + "weight_logsig2"].mul(0.5).exp() * eps
        else:
            out[n] = p
    return out


for m in net:
    if isinstance(m, LRTLinear):
        m.noise = torch.zeros_like(m.noise)
with torch.no_grad():
    preds = torch.stack([functional_call(net, sample_weights(s), (x,)) for s in range(8)])
print("preds", preds.shape)
print("pred mean", preds.mean(0)[::8].squeeze(1).round(decimals=3))
print("pred std ", preds.std(0)[::8].squeeze(1).round(decimals=4))
print("mean net ", net(x)[::8].squeeze(1).detach().round(decimals=3))
sig = net[0].weight_logsig2.detach().mul(0.5).exp()
print("sigma range", f"{sig.min().item():.4f}", f"{sig.max().item():.4f}")
print("snr", (net[0].weight_mu.abs() / sig).median().detach().round(decimals=2))
