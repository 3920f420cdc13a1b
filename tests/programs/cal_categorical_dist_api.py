# torch.distributions.Categorical as used in uncertainty code: entropy / log_prob over
# ensembles, enumerate_support, expand, KL between members, mean/variance and validation errors.
import torch
from torch.distributions import Categorical, kl_divergence, OneHotCategorical

x = torch.arange(12, dtype=torch.float32).reshape(2, 2, 3)
logits = torch.sin(x * 0.8) * 2
d = Categorical(logits=logits)
print(d)
print(d.batch_shape, d.event_shape, d.param_shape)
print(d.probs.round(decimals=4))
print(d.logits.round(decimals=4))
print(d.entropy().round(decimals=4))
print(d.mean, d.variance)
print(d.mode)
support = d.enumerate_support()
print(support.shape, support[:, 0, 0])
print(d.enumerate_support(expand=False).shape)
print(d.log_prob(support).shape)
print(d.log_prob(torch.tensor([0, 2])).round(decimals=4))
e = d.expand(torch.Size([4, 2, 2]))
print(e.batch_shape, e.entropy().shape)
p = Categorical(probs=torch.tensor([[0.7, 0.2, 0.1], [0.2, 0.2, 0.6]]))
q = Categorical(probs=torch.tensor([[1 / 3, 1 / 3, 1 / 3], [0.5, 0.25, 0.25]]))
print(kl_divergence(p, q).round(decimals=5))
print(kl_divergence(q, p).round(decimals=5))
print(p.probs, p.logits.round(decimals=4))
unnorm = Categorical(probs=torch.tensor([2.0, 1.0, 1.0]))
print(unnorm.probs, unnorm.entropy().round(decimals=4))
print(unnorm.perplexity().round(decimals=4))
print(unnorm.support, unnorm.has_enumerate_support)
oh = OneHotCategorical(probs=torch.tensor([0.5, 0.25, 0.25]))
print(oh.entropy().round(decimals=4), oh.log_prob(torch.tensor([0.0, 1.0, 0.0])).round(decimals=4))
print(oh.enumerate_support())
lg = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
ent = Categorical(logits=lg).entropy().sum()
ent.backward()
print(lg.grad.round(decimals=4))
zero = Categorical(probs=torch.tensor([0.0, 1.0, 0.0]))
print(zero.entropy(), zero.logits)
try:
    Categorical(probs=torch.tensor([0.5, -0.5]))
except ValueError as e:
    print(type(e).__name__, str(e)[:120])
try:
    Categorical(probs=torch.tensor([0.5, 0.5]), logits=torch.tensor([0.0, 0.0]))
except ValueError as e:
    print(type(e).__name__, e)
try:
    d.log_prob(torch.tensor([3, 0]))
except ValueError as e:
    print(type(e).__name__, str(e)[:100])
