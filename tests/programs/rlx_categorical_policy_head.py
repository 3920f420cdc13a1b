# CleanRL-style discrete actor: Categorical(logits=...) built from a batch of logits, printing
# only deterministic things: normalised logits, probs, log_prob of stored actions, entropy,
# shapes, argmax "greedy" actions, and what goes wrong with bad actions or bad probabilities.
import torch
import torch.nn as nn
from torch.distributions import Categorical
from torch.distributions.kl import kl_divergence

logits = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [-1.0, 0.0, 10.0], [2.0, -3.0, 0.1]])
dist = Categorical(logits=logits)
print(dist)
print(dist.batch_shape, dist.event_shape, dist.param_shape)
print(dist.logits)
print(dist.probs)
print(dist.probs.sum(-1))
actions = torch.tensor([2, 0, 2, 1])
print(dist.log_prob(actions))
print(dist.entropy())
print(dist.mode, torch.argmax(dist.probs, dim=1), dist.probs.argmax(-1))
print(dist.mean, dist.variance)
print(dist.support, dist.has_enumerate_support)
print(dist.enumerate_support().shape, dist.enumerate_support(expand=False).shape)
print(dist.log_prob(torch.tensor([[0], [1], [2]])).shape)

# probs that do not sum to one are normalised; logits are stored normalised as well
d2 = Categorical(probs=torch.tensor([1.0, 3.0]))
print(d2.probs, d2.logits, d2.entropy())
d3 = Categorical(logits=torch.tensor([0.0, 0.0, 0.0, 0.0]))
print(d3.entropy(), torch.log(torch.tensor(4.0)))
print(kl_divergence(d2, Categorical(logits=torch.tensor([0.0, 0.0]))))
print(kl_divergence(dist, Categorical(logits=torch.zeros(4, 3))))

# a gradient through log_prob and entropy into the network
actor = nn.Linear(2, 3)
with torch.no_grad():
    actor.weight.copy_(torch.tensor([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]))
    actor.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
obs = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
pd = Categorical(logits=actor(obs))
logp = pd.log_prob(torch.tensor([1, 2, 0]))
ent = pd.entropy()
print(logp, ent)
print(logp.grad_fn.name(), ent.grad_fn.name(), pd.logits.grad_fn.name())
loss = -logp.mean() - 0.01 * ent.mean()
loss.backward()
print(actor.weight.grad, actor.bias.grad)

# errors users meet
for bad in [torch.tensor([3, 0, 0, 0]), torch.tensor([0.5, 1.0, 1.0, 1.0]), torch.tensor([-1, 0, 0, 0])]:
    try:
        dist.log_prob(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    Categorical(probs=torch.tensor([0.5, -0.1, 0.6]))
except Exception as e:
    print(type(e).__name__, e)
try:
    Categorical(torch.tensor([0.2, 0.8]), logits=torch.tensor([0.0, 0.0]))
except Exception as e:
    print(type(e).__name__, e)
try:
    dist.log_prob(torch.tensor([0, 1]))
except Exception as e:
    print(type(e).__name__, e)
nv = Categorical(logits=logits, validate_args=False)
print(nv.log_prob(torch.tensor([0, 1, 2, 0])))
print(Categorical(probs=torch.tensor([0.0, 1.0])).entropy(), Categorical(logits=torch.tensor([-float('inf'), 0.0])).entropy())
print(Categorical(probs=torch.tensor([0.0, 1.0])).logits)
