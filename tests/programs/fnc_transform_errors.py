# What torch.func users run into (forum questions and the "UX limitations" docs page): has_aux,
# argnums, in_dims/out_dims pytrees, the errors for non-scalar outputs, mismatched batch sizes,
# non-tensor outputs and tuples for jvp, and vmap's randomness flags with dropout.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import grad, grad_and_value, jacrev, jvp, vjp, vmap


def report(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:
        print(label, "->", type(e).__name__, e)


x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([0.5, -1.0, 2.0])


def loss_with_metrics(w, b):
    pred = w * x + b
    loss = ((pred - y) ** 2).mean()
    return loss, {"pred": pred, "mae": (pred - y).abs().mean()}


w0, b0 = torch.tensor(0.5), torch.tensor(0.1)
(gw, gb), metrics = grad(loss_with_metrics, argnums=(0, 1), has_aux=True)(w0, b0)
print("grads", gw, gb, "| aux keys", sorted(metrics), metrics["mae"])
g, (value, aux) = grad_and_value(loss_with_metrics, has_aux=True)(w0, b0)
print("grad_and_value", g, value, aux["pred"])

report("non-scalar output", lambda: grad(lambda w: w * x)(w0))
report("python float output", lambda: grad(lambda w: float(w) * 2)(w0))
report("has_aux without aux", lambda: grad(lambda w: (w * x).sum(), has_aux=True)(w0))
report("argnums out of range", lambda: grad(lambda w, b: w * b, argnums=2)(w0, b0))
report("argnums repeated", lambda: grad(lambda w, b: w * b, argnums=(1, -1))(w0, b0))
report("int input", lambda: grad(lambda n: n * 2.0)(torch.tensor(3)))
report("jvp with lists", lambda: jvp(torch.sin, [x], [torch.ones(3)]))
report("jvp tangent shape", lambda: jvp(torch.sin, (x,), (torch.ones(2),)))
report("jvp", lambda: jvp(lambda a: a ** 2, (x,), (torch.ones(3),)))
out, vjp_fn = vjp(lambda a: {"sq": a ** 2}, x)
report("vjp cotangent structure", lambda: vjp_fn(torch.ones(3)))
report("vjp", lambda: vjp_fn({"sq": torch.ones(3)}))
report("jacrev aux", lambda: jacrev(lambda a: (a.sin(), a.cos()), has_aux=True)(x))

batch = torch.arange(12.0).view(4, 3)
other = torch.arange(15.0).view(5, 3)
report("mismatched batch sizes", lambda: vmap(torch.add)(batch, other))
report("in_dim too large", lambda: vmap(torch.sum, in_dims=2)(batch))
report("in_dims as list", lambda: vmap(torch.add, in_dims=[0, 0])(batch, batch))
report("nothing to map", lambda: vmap(torch.add, in_dims=(None, None))(batch, batch))
report("non-tensor output", lambda: vmap(lambda r: (r.sum(), 0.5))(batch))
report("out_dims mismatch", lambda: vmap(lambda r: (r, r.sum()), out_dims=(0, 1, 2))(batch))
report("chunk_size 0", lambda: vmap(torch.sum, chunk_size=0)(batch))
report("bad randomness", lambda: vmap(torch.sum, randomness="sometimes")(batch))
report("in_dims pytree", lambda: vmap(lambda d, s: d["a"] * s + d["b"], in_dims=({"a": 0, "b": None}, None))(
    {"a": batch, "b": torch.ones(3)}, 2.0))
report("out_dims=1", lambda: vmap(lambda r: r * 2, out_dims=1)(batch))
report("out_dims None for a constant", lambda: vmap(lambda r: (r.sum(), torch.zeros(2)), out_dims=(0, None))(batch))
report("chunked", lambda: vmap(lambda r: r.norm(), chunk_size=3)(batch))

drop = nn.Dropout(0.5)
report("dropout in train mode", lambda: vmap(drop)(batch))
drop.eval()
report("dropout in eval mode", lambda: vmap(drop)(batch).shape)
drop.train()
torch.manual_seed(0)
same = vmap(lambda r: F.dropout(torch.ones_like(r), 0.5), randomness="same")(batch)
print("same: every row equal", all(torch.equal(row, same[0]) for row in same))
different = vmap(lambda r: torch.rand(3) + r * 0, randomness="different")(batch)
print("different: rows differ", not torch.equal(different[0], different[1]), tuple(different.shape))
report("rand with randomness='error'", lambda: vmap(lambda r: r + torch.rand(3))(batch))
