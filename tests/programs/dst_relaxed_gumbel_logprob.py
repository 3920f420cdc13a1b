# Concrete / Gumbel-softmax relaxations: log densities of given simplex points under
# RelaxedOneHotCategorical and RelaxedBernoulli, temperature gradients, annealing schedule,
# and the straight-through OneHotCategoricalStraightThrough contract on fixed values.
import torch
from torch.distributions import (RelaxedOneHotCategorical, RelaxedBernoulli, OneHotCategorical,
                                 OneHotCategoricalStraightThrough, Categorical)
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli

torch.set_printoptions(precision=4)
logits = torch.tensor([[1.0, 0.0, -1.0], [0.2, 0.2, 0.5]], requires_grad=True)
points = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]])
for tau0 in [5.0, 1.0, 0.5, 0.1]:
    tau = torch.tensor(tau0, requires_grad=True)
    d = RelaxedOneHotCategorical(tau, logits=logits)
    lp = d.log_prob(points)
    g_tau, g_logits = torch.autograd.grad(lp.sum(), (tau, logits))
    print(f"tau={tau0}", lp, f"dtau={g_tau.item():.4f}", g_logits[0])

d = RelaxedOneHotCategorical(torch.tensor(0.5), logits=logits)
print(d, d.batch_shape, d.event_shape, d.temperature, d.support)
print(d.probs, d.logits, sep="\n")
e = ExpRelaxedCategorical(torch.tensor(0.5), logits=logits)
print(e.log_prob(points.log()), e.support)
print(d.expand((4, 2)).batch_shape)

b = RelaxedBernoulli(torch.tensor([0.3, 1.0]), logits=torch.tensor([0.5, -1.0]))
print(b, b.log_prob(torch.tensor([0.2, 0.9])), b.temperature)
lb = LogitRelaxedBernoulli(torch.tensor([0.3, 1.0]), probs=torch.tensor([0.6, 0.3]))
print(lb.log_prob(torch.tensor([-1.0, 2.0])), lb.support, lb.logits)

# temperature annealing schedule as in the Gumbel-softmax paper
for step in [0, 1000, 5000, 20000]:
    t = max(0.5, 1.0 * torch.exp(torch.tensor(-3e-5 * step)).item())
    print(step, round(t, 4), RelaxedOneHotCategorical(torch.tensor(t), logits=logits).log_prob(points))

# straight-through one-hot: gradient flows to probs through the sample
p = torch.tensor([0.2, 0.5, 0.3], requires_grad=True)
st = OneHotCategoricalStraightThrough(probs=p)
print(st, st.has_rsample, OneHotCategorical(probs=p).has_rsample)
oh = OneHotCategorical(probs=p)
v = torch.tensor([0.0, 1.0, 0.0])
print(oh.log_prob(v), Categorical(probs=p).log_prob(torch.tensor(1)), oh.entropy(), oh.mean, oh.variance)
print(oh.enumerate_support())
torch.manual_seed(0)
s = st.rsample((3,))
print(s.shape, s.requires_grad, s.sum(-1))
(s * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(p.grad.shape, p.grad.abs().sum() > 0)
