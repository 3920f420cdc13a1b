# Deep ensemble of heteroscedastic regressors trained in one vectorised step: stack_module_state,
# torch.func.grad of a Gaussian NLL through functional_call, vmap over members, a manual SGD
# update, then the Gaussian-mixture predictive (mean of means, total variance decomposition).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap, grad


class MeanVar(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(1, 12)
        self.out = nn.Linear(12, 2)

    def forward(self, x):
        mean, raw = self.out(torch.tanh(self.hidden(x))).unbind(-1)
        return mean, F.softplus(raw) + 1e-4


M = 5
members = [MeanVar() for _ in range(M)]
with torch.no_grad():
    for k, m in enumerate(members):
        for i, p in enumerate(m.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.4 + 0.13 * k) + i).reshape(p.shape))
params, buffers = stack_module_state(members)
print({k: tuple(v.shape) for k, v in params.items()})
template = MeanVar()

x = torch.linspace(-2, 2, 32).unsqueeze(1)
y = torch.sin(2 * x).squeeze(1) * (1 + 0.2 * x.squeeze(1))


def loss_fn(p, b, xb, yb):
    # written out: F.gaussian_nll_loss checks `var` with data-dependent control flow, which vmap rejects
    mean, var = functional_call(template, (p, b), (xb,))
    return 0.5 * (var.log() + (mean - yb) ** 2 / var).mean()


member_grads = vmap(grad(loss_fn), in_dims=(0, 0, None, None))
member_loss = vmap(loss_fn, in_dims=(0, 0, None, None))
lr = 0.08
for step in range(30):
    g = member_grads(params, buffers, x, y)
    params = {k: v - lr * g[k] for k, v in params.items()}
    if step % 10 == 0:
        print(f"step {step:2d}", member_loss(params, buffers, x, y).round(decimals=4))

# cross-check member 2's gradient against plain autograd
m2 = MeanVar()
m2.load_state_dict({k: v[2] for k, v in params.items()})
mean, var = m2(x)
F.gaussian_nll_loss(mean, y, var).backward()
g = member_grads(params, buffers, x, y)
print("vmap grad == autograd", torch.allclose(g["out.weight"][2], m2.out.weight.grad, atol=1e-6))

xt = torch.tensor([[-3.0], [0.0], [3.0]])
means, vars_ = vmap(functional_call, in_dims=(None, 0, None))(template, params, (xt,))
print("member means", means.shape, vars_.shape)
mix_mean = means.mean(0)
aleatoric = vars_.mean(0)
epistemic = means.var(0, unbiased=False)
total = aleatoric + epistemic
print("F.gaussian_nll_loss", f"{F.gaussian_nll_loss(mean, y, var).item():.5f}", f"{loss_fn(dict(m2.named_parameters()), {}, x, y).item():.5f}")
print("mean", mix_mean.round(decimals=3))
print("aleatoric", aleatoric.round(decimals=4))
print("epistemic", epistemic.round(decimals=4))
print("total", torch.allclose(total, (vars_ + means ** 2).mean(0) - mix_mean ** 2, atol=1e-5))
lp = torch.distributions.Normal(means, vars_.sqrt()).log_prob(torch.zeros(3))
print("mixture log pdf at 0", (torch.logsumexp(lp, 0) - math.log(M)).round(decimals=3))
