# Embedding lookups users write in mixed-precision and meta-learning code: half/float64
# tables, a transposed (non-contiguous) weight, lookups through a view, double backward through
# F.embedding (gradient penalty), embeddings under torch.func.grad and vmap, repr of outputs.
import torch
import torch.nn as nn
import torch.nn.functional as F

base = torch.linspace(-1.0, 1.0, 15).view(5, 3)
ids = torch.tensor([[4, 0, 2], [1, 1, 3]])

for dtype in (torch.float16, torch.float64):
    e = nn.Embedding(5, 3, dtype=dtype)
    with torch.no_grad():
        e.weight.copy_(base)
    out = e(ids)
    out.float().sum().backward()
    print(dtype, out.dtype, out[0, 0], e.weight.grad.dtype, e.weight.grad[1])

# a transposed weight (3 x 5 stored, used as 5 x 3)
storage = base.t().contiguous().requires_grad_()
w = storage.t()
print(w.is_contiguous())
y = F.embedding(ids, w)
y.pow(2).sum().backward()
print(y[1])
print(storage.grad)

# lookups into a slice of a bigger table (shared vocab, two heads)
big = torch.arange(30.0).view(10, 3).requires_grad_()
first, second = big[:5], big[5:]
z = F.embedding(ids, first) + F.embedding(ids, second) * 0.5
z.sum().backward()
print(big.grad[:, 0])

# gradient penalty: d/dw of ||d loss / d emb||^2
wt = base.clone().requires_grad_()
emb_out = F.embedding(ids, wt)
loss = (emb_out.sin() * torch.arange(3.0)).sum()
(g,) = torch.autograd.grad(loss, wt, create_graph=True)
print(g)
penalty = g.pow(2).sum()
penalty.backward()
print(wt.grad)

# torch.func: gradient w.r.t. the table of a per-example loss, vmapped over the batch
from torch.func import grad, vmap


def per_example(table, row_ids):
    return F.embedding(row_ids, table).pow(2).sum()


per_grads = vmap(grad(per_example), in_dims=(None, 0))(base, ids)
print(per_grads.shape)
print(per_grads[1])
print(torch.allclose(per_grads.sum(0), grad(lambda t: F.embedding(ids, t).pow(2).sum())(base)))

# requires_grad and grad_fn of outputs
frozen = nn.Embedding.from_pretrained(base)
o = frozen(ids)
print(o.requires_grad, o.grad_fn, o.is_leaf)
with torch.no_grad():
    print(nn.Embedding(5, 3)(ids).requires_grad)
with torch.inference_mode():
    r = frozen(ids)
print(r.is_inference(), r.shape)
