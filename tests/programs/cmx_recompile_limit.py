# Variable batch sizes through a compiled function with a lowered
# torch._dynamo.config.cache_size_limit; past the limit it falls back to eager, values still right.
import torch

print(torch._dynamo.config.cache_size_limit)
old = torch._dynamo.config.cache_size_limit
torch._dynamo.config.cache_size_limit = 2
print(torch._dynamo.config.cache_size_limit)


@torch.compile(dynamic=False)
def softplus_sum(x, beta):
    return (torch.log1p(torch.exp(beta * x)) / beta).sum(dim=-1)


for n in (2, 3, 4, 5, 3, 2):
    x = torch.linspace(-1, 1, n * 3).view(n, 3)
    out = softplus_sum(x, 2.0)
    print(n, tuple(out.shape), [round(v, 4) for v in out.tolist()])

for beta in (1.0, 0.5, 3.0):
    print(beta, round(softplus_sum(torch.ones(2, 3), beta).sum().item(), 4))

torch._dynamo.config.cache_size_limit = old
torch._dynamo.reset()
print(torch._dynamo.config.cache_size_limit == old)

lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -0.25, 1.0], [0.0, 0.75, -0.5]]))
    lin.bias.zero_()
clin = torch.compile(lin, dynamic=True)
for n in (1, 4, 7):
    x = torch.arange(n * 3, dtype=torch.float32).view(n, 3) / 10
    y = clin(x)
    y.sum().backward()
    print(n, tuple(y.shape), [[round(v, 3) for v in r] for r in lin.weight.grad.tolist()])
    lin.zero_grad()
