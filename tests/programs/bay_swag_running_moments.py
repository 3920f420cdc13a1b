# SWAG: after a burn-in, collect running first and second moments of the flattened weights
# (parameters_to_vector), a low-rank deviation matrix, then sample-free checks by loading the
# SWA mean back with vector_to_parameters.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.distributions import LowRankMultivariateNormal, Normal


def build():
    m = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape))
    return m


x = torch.stack([torch.linspace(-1, 1, 24), torch.sin(torch.linspace(0, 6, 24))], dim=1)
y = (x[:, :1] * 2 - x[:, 1:] ** 2)

model = build()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
n_params = sum(p.numel() for p in model.parameters())
print("n params", n_params, parameters_to_vector(model.parameters()).shape)

mean = torch.zeros(n_params)
sq_mean = torch.zeros(n_params)
deviations = []
n_models = 0
K = 4
for step in range(30):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step >= 10 and step % 2 == 0:
        with torch.no_grad():
            w = parameters_to_vector(model.parameters())
            mean = (n_models * mean + w) / (n_models + 1)
            sq_mean = (n_models * sq_mean + w ** 2) / (n_models + 1)
            n_models += 1
            deviations.append(w - mean)
            deviations = deviations[-K:]
    if step % 10 == 9:
        print(f"step {step} loss {loss.item():.5f}")

print("collected", n_models)
var = torch.clamp(sq_mean - mean ** 2, min=1e-12)
print("var stats", f"{var.max().item():.3e}", var.min().item() >= 1e-12)
D = torch.stack(deviations, dim=1)
print("D", D.shape, D.requires_grad)

swa_model = build()
vector_to_parameters(mean, swa_model.parameters())
print("loaded", torch.equal(parameters_to_vector(swa_model.parameters()), mean))
print("is leaf", [p.is_leaf for p in swa_model.parameters()])
with torch.no_grad():
    print("swa loss", f"{F.mse_loss(swa_model(x), y).item():.5f}")
    print("last loss", f"{F.mse_loss(model(x), y).item():.5f}")

post = LowRankMultivariateNormal(mean, cov_factor=D / (2 * (K - 1)) ** 0.5, cov_diag=var / 2)
print(post.batch_shape, post.event_shape, post.cov_factor.shape)
print("mean ok", torch.equal(post.mean, mean))
print("variance", torch.allclose(post.variance, var / 2 + (D ** 2).sum(1) / (2 * (K - 1))))
print("log_prob at mean", f"{post.log_prob(mean).item():.2f}")
diag = Normal(mean, var.sqrt())
print("diag entropy", f"{diag.entropy().sum().item():.2f}")

# error handling users hit when the vector does not fit
for bad in (mean[:-1], mean.tolist()):
    try:
        vector_to_parameters(bad, swa_model.parameters())
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
try:
    parameters_to_vector(torch.ones(3))
except TypeError as e:
    print(type(e).__name__, e)
print(parameters_to_vector([torch.ones(2, 2), torch.zeros(3)]))
