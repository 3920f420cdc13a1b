# Augmented assignment on tensors is in-place: `x //= 2`, `x %= 3`, `x **= 2`, `x /= 255` write into
# the same storage (views and aliases see it, dtype is kept or an error is raised), unlike `x = x // 2`.
import torch


def attempt(label, fn):
    try:
        print(f"{label:24s} ->", fn())
    except Exception as e:  # noqa: BLE001
        print(f"{label:24s} ->", type(e).__name__ + ":", e)


grid = torch.arange(12).view(3, 4)
row = grid[1]
alias = grid
before = id(row)
row //= 2
print(grid, id(row) == before, row._version)
row %= 3
print(grid[1], id(row) == before)
col = grid[:, 0]
col **= 2
print(grid[:, 0], grid._version, alias is grid)
col *= -1
col //= 4
print(grid[:, 0])

f = torch.linspace(-2, 2, 5)
view = f[1:4]
view **= 2
print(f)
view %= 0.75
print(f)
view //= 0.5
print(f, f.dtype)


def ip(x, op, other):
    y = x
    if op == "//":
        x //= other
    elif op == "%":
        x %= other
    elif op == "**":
        x **= other
    elif op == "/":
        x /= other
    elif op == "+":
        x += other
    return x, x.dtype, x is y


attempt("long //= 2.5", lambda: ip(torch.tensor([7, -7]), "//", 2.5))
attempt("long %= 2.5", lambda: ip(torch.tensor([7, -7]), "%", 2.5))
attempt("long **= 0.5", lambda: ip(torch.tensor([4, 9]), "**", 0.5))
attempt("long **= 2", lambda: ip(torch.tensor([4, 9]), "**", 2))
attempt("long **= -1", lambda: ip(torch.tensor([4, 9]), "**", -1))
attempt("long /= 2", lambda: ip(torch.tensor([4, 9]), "/", 2))
attempt("uint8 /= 255", lambda: ip(torch.tensor([0, 255], dtype=torch.uint8), "/", 255))
attempt("uint8 //= 16", lambda: ip(torch.tensor([0, 255], dtype=torch.uint8), "//", 16))
attempt("int32 //= f64 0-dim", lambda: ip(torch.tensor([5], dtype=torch.int32), "//", torch.tensor(2.0, dtype=torch.float64)))
attempt("int32 /= f64 0-dim", lambda: ip(torch.tensor([5], dtype=torch.int32), "/", torch.tensor(2.0, dtype=torch.float64)))
attempt("bool += 1", lambda: ip(torch.tensor([True, False]), "+", 1))
attempt("bool += True", lambda: ip(torch.tensor([True, False]), "+", True))
attempt("bool //= True", lambda: ip(torch.tensor([True, False]), "//", True))
attempt("bool %= 2", lambda: ip(torch.tensor([True, False]), "%", 2))
attempt("float //= 2", lambda: ip(torch.tensor([7.5, -7.5]), "//", 2))
attempt("float %= -2", lambda: ip(torch.tensor([7.5, -7.5]), "%", -2))
attempt("float **= 2", lambda: ip(torch.tensor([1.5]), "**", 2))
attempt("f32 **= f64 tensor", lambda: ip(torch.tensor([1.5]), "**", torch.tensor([2.0], dtype=torch.float64)))
attempt("(2,) //= (2,2)", lambda: ip(torch.tensor([4, 6]), "//", torch.tensor([[1, 2], [3, 4]])))

w = torch.tensor([1.0, 2.0], requires_grad=True)
for op in ["//", "%", "**", "/"]:
    attempt(f"leaf {op}=", lambda: ip(w, op, 2))
with torch.no_grad():
    w **= 2
    w %= 3
print(w, w._version, w.requires_grad, w.grad_fn)
h = w * 1
h **= 2
h %= 5
print(h, h.grad_fn.name(), h._version)
h.sum().backward()
print(w.grad)
