# Errors users run into with torch.compile and print: a bad mode string, mode+options together,
# fullgraph=True on a function with a graph break, compiling a non-callable, torch._dynamo.config
# typos — and that the eager fallback still gives the right numbers.
import torch
import torch._dynamo


def f(x):
    return torch.relu(x) + 1


x = torch.tensor([-1.0, 0.5, 2.0])

try:
    torch.compile(f, mode="fastest")
except RuntimeError as e:
    print("RuntimeError:", e)

try:
    torch.compile(f, mode="max-autotune", options={"max_autotune": True})
except RuntimeError as e:
    print("RuntimeError:", e)

try:
    torch.compile(42)
except Exception as e:
    print(type(e).__name__)


@torch.compile(fullgraph=True)
def with_print(x):
    y = x * 2
    print("side effect")
    return y


@torch.compile(fullgraph=True)
def with_item(x):
    if x.sum().item() > 0:
        return x + 1
    return x - 1


for fn in (with_print, with_item):
    try:
        fn(x)
    except Exception as e:
        print(fn.__name__ if hasattr(fn, "__name__") else "fn", type(e).__name__, isinstance(e, torch._dynamo.exc.Unsupported))

# without fullgraph the same functions just run (graph break)
print(torch.compile(with_item.__wrapped__ if hasattr(with_item, "__wrapped__") else f)(x))

try:
    torch._dynamo.config.cache_size_limt = 4
except AttributeError as e:
    print("AttributeError")

try:
    torch.compile(f, backend="not-a-backend")(x)
except Exception as e:
    print(type(e).__name__)

print(torch.compile(f, backend="eager")(x))
print(torch.compile(f)(x))
