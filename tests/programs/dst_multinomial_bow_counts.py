# Bag-of-words topic decoder with torch.distributions.Multinomial: log_prob of word-count vectors
# from decoder logits, gradients, total_count handling, moments, reprs and validation errors.
import torch
import torch.nn as nn
from torch.distributions import Multinomial, Categorical, Binomial

torch.set_printoptions(precision=4)
V, K = 6, 3
counts = torch.tensor([[3., 0., 1., 2., 0., 4.],
                       [0., 5., 0., 0., 3., 2.],
                       [1., 1., 1., 1., 1., 5.]])
theta = torch.softmax(torch.linspace(-1, 1, 3 * K).reshape(3, K), dim=-1)
beta = nn.Parameter(torch.sin(torch.arange(K * V, dtype=torch.float32)).reshape(K, V))

logits = torch.log(theta @ torch.softmax(beta, dim=-1))
dist = Multinomial(total_count=10, logits=logits)
print(dist)
print(dist.batch_shape, dist.event_shape, dist.total_count)
lp = dist.log_prob(counts)
print("log_prob", lp)
loss = -lp.mean()
loss.backward()
print("loss", f"{loss.item():.4f}")
print("beta.grad", beta.grad)
print("mean", dist.mean)
print("variance", dist.variance)
print("probs sum", dist.probs.sum(-1))

# total_count=1 gives the categorical log-likelihood of one-hot words
one = Multinomial(1, probs=torch.tensor([0.2, 0.3, 0.5]))
print(one.log_prob(torch.tensor([0., 0., 1.])), Categorical(probs=torch.tensor([0.2, 0.3, 0.5])).log_prob(torch.tensor(2)))
# unnormalized probs are normalized
m = Multinomial(4, probs=torch.tensor([1., 2., 1.]))
print(m.probs, m.logits)
print(m.log_prob(torch.tensor([2., 1., 1.])))
print(m.support)
# marginal of a multinomial is binomial
print(Binomial(4, probs=m.probs[1]).log_prob(torch.tensor(1.)))
# entropy is only implemented for ... check
try:
    print("entropy", m.entropy())
except Exception as e:
    print(type(e).__name__, e)

for bad in [torch.tensor([2., 1., 0.]), torch.tensor([2., -1., 3.]), torch.tensor([1.5, 1.5, 1.])]:
    try:
        print(m.log_prob(bad))
    except ValueError as e:
        print("ValueError", str(e).split("\n")[0][:90])

try:
    Multinomial(3, probs=torch.tensor([0.5, -0.2, 0.7]))
except ValueError as e:
    print("ValueError", str(e)[:80])
try:
    Multinomial(3)
except ValueError as e:
    print("ValueError", e)
# total_count=0 with validate off
free = Multinomial(probs=torch.tensor([0.5, 0.5]), validate_args=False)
print(free.total_count, free.log_prob(torch.tensor([3., 4.])))
ex = dist.expand(torch.Size([2, 3]))
print(ex.batch_shape, ex.log_prob(counts).shape)
print(Multinomial(10, logits=torch.zeros(2, 4)).param_shape)
