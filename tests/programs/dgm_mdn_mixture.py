# Mixture density network (Bishop-style, as in MDN tutorials): Categorical + Normal combined with
# MixtureSameFamily, negative log-likelihood training, mixture mean/variance, reprs and shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal, MixtureSameFamily, Independent, MultivariateNormal


class MDN(nn.Module):
    def __init__(self, d_in=1, hidden=16, k=3):
        super().__init__()
        self.k = k
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, k)
        self.mu = nn.Linear(hidden, k)
        self.log_sigma = nn.Linear(hidden, k)

    def forward(self, x):
        h = self.body(x)
        mix = Categorical(logits=self.pi(h))
        comp = Normal(self.mu(h), self.log_sigma(h).exp())
        return MixtureSameFamily(mix, comp)


model = MDN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + 0.4 * i).view(p.shape))

x = torch.linspace(-1, 1, 24).unsqueeze(1)
y = torch.sin(3 * x) + 0.3 * torch.cos(7 * x)
dist = model(x)
print(dist)
print(dist.batch_shape, dist.event_shape)
print(dist.mixture_distribution)
print(dist.component_distribution)
print(dist.mixture_distribution.probs[:2])
lp = dist.log_prob(y.squeeze(1))
print(lp.shape, f"{lp.mean().item():.4f}")
print(dist.mean[:3])
print(dist.variance[:3])
print(dist.sample().shape, dist.sample((5,)).shape)
print(dist.cdf(torch.zeros(24))[:3])

opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for step in range(40):
    nll = -model(x).log_prob(y.squeeze(1)).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        print(f"step {step:2d} nll {nll.item():.4f}")

# manual log-sum-exp version users write before discovering MixtureSameFamily
h = model.body(x)
log_pi = F.log_softmax(model.pi(h), dim=-1)
comp = Normal(model.mu(h), model.log_sigma(h).exp())
manual = torch.logsumexp(log_pi + comp.log_prob(y), dim=-1)
print(torch.allclose(manual, model(x).log_prob(y.squeeze(1)), atol=1e-5))

# 2-D Gaussian mixture
mix = Categorical(torch.ones(3) / 3)
comp2 = Independent(Normal(torch.tensor([[0.0, 0.0], [2.0, 1.0], [-1.0, 3.0]]),
                           torch.tensor([[1.0, 0.5], [0.3, 0.3], [1.0, 2.0]])), 1)
gmm = MixtureSameFamily(mix, comp2)
print(gmm)
print(gmm.batch_shape, gmm.event_shape)
pts = torch.tensor([[0.0, 0.0], [2.0, 1.0], [5.0, 5.0]])
print(gmm.log_prob(pts))
print(gmm.mean, gmm.variance)
mvn_comp = MultivariateNormal(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.eye(2).expand(2, 2, 2) * torch.tensor([1.0, 2.0]).view(2, 1, 1))
gmm2 = MixtureSameFamily(Categorical(probs=torch.tensor([0.3, 0.7])), mvn_comp)
print(gmm2.log_prob(pts))
try:
    MixtureSameFamily(Categorical(torch.ones(4) / 4), comp2)
except ValueError as e:
    print("ValueError", e)
try:
    MixtureSameFamily(torch.ones(3), comp2)
except ValueError as e:
    print("ValueError", e)
