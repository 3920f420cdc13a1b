# The small torch.compiler / torch._dynamo helpers users reach for: is_compiling() to branch
# between compiled and eager code, the recompile limit in torch._dynamo.config, mark_dynamic,
# torch._dynamo.disable / torch.compiler.disable, allow_in_graph, and resetting caches.
import torch
import torch.nn.functional as F


def activation(x):
    if torch.compiler.is_compiling():
        return F.gelu(x, approximate="tanh")
    return F.gelu(x)


x = torch.linspace(-2.0, 2.0, 5)
print(torch.compiler.is_compiling())
print(activation(x))
print(torch.compile(activation)(x))
print(torch.compile(lambda t: torch.tensor(torch.compiler.is_compiling()) + t)(torch.zeros(2)))


@torch.compiler.disable
def eager_only(t):
    return t * int(torch.compiler.is_compiling())


@torch.compile
def uses_eager(t):
    return eager_only(t) + t.sin()


print(uses_eager(x))
print(eager_only.__name__)


@torch._dynamo.disable
def clip_eager(t):
    return t.clamp(-1, 1)


print(torch.compile(lambda t: clip_eager(t) * 2)(x))

# raising the recompile limit before compiling a function called with many shapes
print(torch._dynamo.config.cache_size_limit, torch._dynamo.config.suppress_errors)
torch._dynamo.config.cache_size_limit = 16
print(torch._dynamo.config.cache_size_limit)


@torch.compile
def poly(t):
    return t ** 3 - 2 * t


print([poly(torch.arange(float(n))).sum().item() for n in range(1, 10)])

# marking a dimension dynamic up front
batch = torch.arange(12.0).view(4, 3)
torch._dynamo.mark_dynamic(batch, 0)
print(torch.compile(lambda t: t.mean(0))(batch))

# a helper kept whole in the graph
def fused(a, b):
    return a * b + a


torch.compiler.allow_in_graph(fused)
print(torch.compile(lambda a, b: fused(a, b).sum())(x, x))

torch._dynamo.reset()
torch.compiler.reset()
print(poly(torch.tensor([2.0, 3.0])))
print(torch.compiler.is_dynamo_compiling(), torch._dynamo.is_compiling())
print("inductor" in torch.compiler.list_backends(), "eager" in torch._dynamo.list_backends(exclude_tags=()))
