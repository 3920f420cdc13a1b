# Scatter-add homework: building histograms / embedding-gradient accumulation with
# index_put_(accumulate=True) and scatter_reduce, including the errors students hit.
import torch

# word-count style accumulation
tokens = torch.tensor([4, 1, 4, 2, 4, 1, 0])
counts = torch.zeros(6).index_put_((tokens,), torch.ones(len(tokens)), accumulate=True)
print("counts", counts, torch.equal(counts, torch.bincount(tokens, minlength=6).float()))

# 2-D confusion matrix with a pair of index tensors
pred = torch.tensor([0, 1, 1, 2, 2, 2, 0])
true = torch.tensor([0, 1, 2, 2, 2, 1, 1])
cm = torch.zeros(3, 3, dtype=torch.long)
cm.index_put_((true, pred), torch.tensor(1), accumulate=True)
print(cm)
print("accuracy", (cm.diagonal().sum() / cm.sum()).item())

# embedding gradient by hand: rows of grad_out added into the table rows
emb_grad = torch.zeros(5, 2)
grad_out = torch.arange(8.0).reshape(4, 2)
emb_grad.index_put_((torch.tensor([1, 3, 1, 1]),), grad_out, accumulate=True)
print(emb_grad)
E = torch.nn.Embedding(5, 2)
E(torch.tensor([1, 3, 1, 1])).mul(grad_out).sum().backward() if False else None
ref = torch.zeros(5, 2).index_add_(0, torch.tensor([1, 3, 1, 1]), grad_out)
print("matches index_add_:", torch.equal(ref, emb_grad))

# masks as indices
m = torch.zeros(4)
m.index_put_((torch.tensor([True, False, True, False]),), torch.tensor([1.0, 2.0]), accumulate=True)
print(m)

# scatter_reduce: segment max/min/mean
seg = torch.tensor([0, 0, 1, 1, 1, 2])
vals = torch.tensor([3.0, -1.0, 4.0, 1.0, 5.0, -9.0])
for red in ["sum", "mean", "amax", "amin", "max", "min", "prod"]:
    out = torch.zeros(3).scatter_reduce(0, seg, vals, reduce=red, include_self=False)
    print(f"{red:5s}", out)
try:
    torch.zeros(3).scatter_reduce(0, seg, vals, reduce="median")
except RuntimeError as e:
    print("RuntimeError", e)

# the errors
cases = {
    "out of range": lambda: torch.zeros(3).index_put_((torch.tensor([5]),), torch.tensor(1.0), accumulate=True),
    "negative out of range": lambda: torch.zeros(3).index_put_((torch.tensor([-4]),), torch.tensor(1.0), accumulate=True),
    "second dim out of range": lambda: torch.zeros(2, 3).index_put_((torch.tensor([0]), torch.tensor([3])), torch.tensor(1.0), accumulate=True),
    "index shapes": lambda: torch.zeros(2, 3).index_put_((torch.tensor([0, 1]), torch.tensor([1, 2, 0])), torch.tensor(1.0), accumulate=True),
    "value shape": lambda: torch.zeros(3).index_put_((torch.tensor([0, 0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True),
    "row value shape": lambda: torch.zeros(2, 3).index_put_((torch.tensor([0, 1]),), torch.tensor([1.0, 2.0]), accumulate=True),
    "too many indices": lambda: torch.zeros(2, 3).index_put_((torch.tensor([0]), torch.tensor([1]), torch.tensor([0])), torch.tensor(1.0), accumulate=True),
    "dtype": lambda: torch.zeros(3).index_put_((torch.tensor([0]),), torch.tensor([1]), accumulate=True),
    "float index": lambda: torch.zeros(3).index_put_((torch.tensor([0.0]),), torch.tensor([1.0]), accumulate=True),
}
for name, fn in cases.items():
    try:
        print(name, "->", fn())
    except (RuntimeError, IndexError, TypeError) as e:
        print(name, "->", type(e).__name__, e)

# gradient flows to both the base and the values
base = torch.zeros(4, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = base.index_put((torch.tensor([0, 0, 2]),), v, accumulate=True)
(out * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
print(out, out.grad_fn.name(), base.grad, v.grad)
