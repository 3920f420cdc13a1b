# Discrete latents (Gumbel-softmax VAE / VQ tutorials): hand-written Gumbel-softmax with fixed
# noise, straight-through hard one-hot, RelaxedOneHotCategorical / RelaxedBernoulli log_prob,
# OneHotCategoricalStraightThrough gradients, and F.gumbel_softmax shapes.
import torch
import torch.nn.functional as F
from torch.distributions import (RelaxedOneHotCategorical, RelaxedBernoulli, OneHotCategorical,
                                 OneHotCategoricalStraightThrough, Categorical, kl_divergence)

logits = torch.tensor([[1.0, 0.5, -0.5, 0.0], [0.2, 0.2, 2.0, -1.0]], requires_grad=True)
u = torch.tensor([[0.1, 0.7, 0.4, 0.9], [0.5, 0.2, 0.8, 0.3]])
g = -torch.log(-torch.log(u + 1e-20) + 1e-20)
for tau in (0.1, 0.5, 1.0):
    y_soft = F.softmax((logits + g) / tau, dim=-1)
    print(tau, y_soft)
index = y_soft.max(dim=-1, keepdim=True)[1]
y_hard = torch.zeros_like(logits).scatter_(-1, index, 1.0)
y_st = y_hard - y_soft.detach() + y_soft
print(y_hard, y_st.grad_fn.name())
w = torch.arange(8, dtype=torch.float32).view(2, 4)
(y_st * w).sum().backward()
print(logits.grad)

out = F.gumbel_softmax(logits.detach(), tau=0.5, hard=True)
print(out.shape, out.sum(-1), out.max(-1).values)
out_s = F.gumbel_softmax(logits.detach(), tau=0.5, hard=False, dim=-1)
print(out_s.shape, torch.allclose(out_s.sum(-1), torch.ones(2)))

temp = torch.tensor(0.5)
r = RelaxedOneHotCategorical(temp, logits=logits.detach())
print(r)
print(r.batch_shape, r.event_shape, r.temperature)
val = torch.tensor([[0.7, 0.1, 0.1, 0.1], [0.05, 0.05, 0.85, 0.05]])
print(r.log_prob(val))
print(r.rsample().shape, r.sample((3,)).shape, r.has_rsample)
print(r.probs)
rb = RelaxedBernoulli(torch.tensor([0.3]), logits=torch.tensor([0.0, 1.0, -2.0]))
print(rb, rb.batch_shape)
print(rb.log_prob(torch.tensor([0.5, 0.9, 0.01])))
print(rb.rsample().shape)

st = OneHotCategoricalStraightThrough(logits=logits)
print(st, st.has_rsample)
s = st.rsample()
print(s.shape, s.requires_grad, s.sum(-1))
oh = OneHotCategorical(logits=logits.detach())
print(oh.has_rsample, oh.has_enumerate_support)
print(oh.enumerate_support().shape)
print(oh.entropy())
print(kl_divergence(oh, OneHotCategorical(probs=torch.full((2, 4), 0.25))))
print(kl_divergence(Categorical(logits=logits.detach()), Categorical(logits=torch.zeros(4))))
try:
    oh.rsample()
except NotImplementedError as e:
    print("NotImplementedError", e)

# categorical KL to uniform prior, as in the Gumbel-softmax VAE loss
q = F.softmax(logits, dim=-1)
kl = (q * (torch.log(q + 1e-20) - torch.log(torch.tensor(1.0 / 4)))).sum(-1)
print(kl)
