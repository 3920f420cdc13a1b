# DreamerV3 building blocks: symlog/symexp, two-hot encoding of returns over exponentially spaced
# bins (bucketize + scatter_add_), straight-through one-hot categorical latents
# (onehot + probs - probs.detach()), KL balancing with detach and free bits via clamp(min=), and
# imagined lambda-returns from a reversed list stacked with torch.stack.
import torch
import torch.nn.functional as F
from torch.distributions import Independent, OneHotCategorical, kl_divergence


def symlog(x):
    return torch.sign(x) * torch.log1p(torch.abs(x))


def symexp(x):
    return torch.sign(x) * (torch.exp(torch.abs(x)) - 1)


x = torch.tensor([-100.0, -1.0, 0.0, 0.5, 20.0])
print(symlog(x).round(decimals=4), symexp(symlog(x)).round(decimals=3))

bins = symexp(torch.linspace(-5, 5, 11))
print(bins.round(decimals=2))


def two_hot(values, bins):
    values = values.clamp(bins[0], bins[-1])
    above = torch.bucketize(values, bins, right=False).clamp(1, len(bins) - 1)
    below = above - 1
    w_above = (values - bins[below]) / (bins[above] - bins[below])
    out = torch.zeros(values.shape[0], len(bins))
    out.scatter_add_(1, below.unsqueeze(1), (1 - w_above).unsqueeze(1))
    out.scatter_add_(1, above.unsqueeze(1), w_above.unsqueeze(1))
    return out


targets = torch.tensor([0.0, 3.0, -20.0, 1000.0, 0.7])
th = two_hot(targets, bins)
print(th.round(decimals=3), th.sum(1))
print(torch.allclose((th * bins).sum(1), targets.clamp(bins[0], bins[-1]), atol=1e-3))
logits = torch.cos(torch.arange(5 * 11, dtype=torch.float32) * 0.37).view(5, 11).requires_grad_()
loss = -(th * F.log_softmax(logits, -1)).sum(-1).mean()
loss.backward()
print(f"{loss.item():.4f}", logits.grad.sum().abs() < 1e-6, (F.softmax(logits, -1) * bins).sum(-1).detach().round(decimals=3))

# straight-through categorical latents: 2 variables x 4 classes
post_logits = torch.sin(torch.arange(3 * 2 * 4, dtype=torch.float32)).view(3, 2, 4).requires_grad_()
prior_logits = torch.cos(torch.arange(3 * 2 * 4, dtype=torch.float32) * 0.5).view(3, 2, 4).requires_grad_()
probs = F.softmax(post_logits, -1)
sample = F.one_hot(probs.argmax(-1), 4).float()
st = sample + probs - probs.detach()
print(st.shape, st.grad_fn.name(), torch.equal(st.detach(), sample), st.flatten(1).shape)
(st * torch.arange(4.0)).sum().backward()
print(post_logits.grad[0].round(decimals=4))

post = Independent(OneHotCategorical(logits=post_logits), 1)
prior = Independent(OneHotCategorical(logits=prior_logits), 1)
print(post.batch_shape, post.event_shape, post.mode.shape, post.entropy().round(decimals=4))
sg = lambda d: Independent(OneHotCategorical(logits=d.base_dist.logits.detach()), 1)
dyn = kl_divergence(sg(post), prior)
rep = kl_divergence(post, sg(prior))
free = 1.0
kl_loss = 0.5 * torch.clamp(dyn, min=free).mean() + 0.1 * torch.maximum(rep, torch.tensor(free)).mean()
post_logits.grad = None
kl_loss.backward()
print(dyn.round(decimals=4), rep.round(decimals=4), f"{kl_loss.item():.4f}")
print(post_logits.grad.abs().sum().round(decimals=4), prior_logits.grad.abs().sum().round(decimals=4))

# imagined lambda returns (H, B)
H, B = 5, 3
rew = torch.sin(torch.arange(H * B, dtype=torch.float32)).view(H, B)
val = torch.cos(torch.arange((H + 1) * B, dtype=torch.float32) * 0.3).view(H + 1, B)
cont = torch.ones(H, B) * 0.99
cont[3, 1] = 0.0
lam = 0.95
outs = []
last = val[-1]
for t in reversed(range(H)):
    last = rew[t] + cont[t] * ((1 - lam) * val[t + 1] + lam * last)
    outs.append(last)
ret = torch.stack(list(reversed(outs)))
print(ret.round(decimals=4))
weights = torch.cumprod(torch.cat([torch.ones(1, B), cont[:-1]]), 0)
print(weights.round(decimals=4))
lo, hi = torch.quantile(ret, 0.05), torch.quantile(ret, 0.95)
scale = torch.clamp(hi - lo, min=1.0)
print(lo.round(decimals=4), hi.round(decimals=4), scale.round(decimals=4), ((ret - val[:-1]) / scale).mean().round(decimals=4))
