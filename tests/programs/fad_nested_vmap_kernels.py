# Pairwise kernels and batched geometry with nested vmap, as in JAX-style research code:
# vmap(vmap(k, in_dims=(None, 0)), in_dims=(0, None)), dict/tuple in_dims pytrees, out_dims
# tuples with None, negative dims, and vmap composed with grad for kernel gradients (Stein).
import torch
from torch.func import grad, jacrev, vmap

torch.set_default_dtype(torch.float64)


def rbf(x, y, ls):
    return torch.exp(-((x - y) ** 2).sum() / (2 * ls ** 2))


X = torch.stack([torch.linspace(-1, 1, 5), torch.sin(torch.linspace(0, 3, 5))], dim=1)
Y = torch.stack([torch.linspace(0, 2, 3), torch.cos(torch.linspace(0, 2, 3))], dim=1)
ls = torch.tensor(0.8)

K = vmap(vmap(rbf, in_dims=(None, 0, None)), in_dims=(0, None, None))(X, Y, ls)
print("K", tuple(K.shape))
print(K)
K_T = vmap(vmap(rbf, in_dims=(0, None, None)), in_dims=(None, 0, None))(X, Y, ls)
print("transposed nesting gives K.T:", torch.allclose(K_T, K.T))

# gradient of the kernel w.r.t. its first argument, for every pair (Stein variational GD)
dK = vmap(vmap(grad(rbf), in_dims=(None, 0, None)), in_dims=(0, None, None))(X, X, ls)
print("dK", tuple(dK.shape))
phi = (K_self := vmap(vmap(rbf, (None, 0, None)), (0, None, None))(X, X, ls)) @ (-X) / 5 + dK.sum(0) / 5
print("SVGD direction\n", phi)

# dict pytree inputs with per-leaf in_dims, tuple outputs with out_dims per output
def affine(p, x):
    y = p["W"] @ x + p["b"]
    return y, y.norm()

params = {"W": torch.arange(6.0).view(3, 2) / 6, "b": torch.tensor([0.1, -0.2, 0.3])}
ys, norms = vmap(affine, in_dims=({"W": None, "b": None}, 0), out_dims=(1, 0))(params, X)
print("out_dims=(1, 0):", tuple(ys.shape), tuple(norms.shape))
batched_b = torch.stack([params["b"] * s for s in (1.0, 2.0, 3.0, 4.0, 5.0)])
ys2, _ = vmap(affine, in_dims=({"W": None, "b": 0}, 0))({"W": params["W"], "b": batched_b}, X)
print("per-example bias:\n", ys2)

# in_dims on a non-leading (and negative) dimension, out_dims=-1
cols = X.T.contiguous()  # (2, 5)
a = vmap(lambda v: v * v.sum(), in_dims=-1, out_dims=-1)(cols)
print("in_dims=-1/out_dims=-1:", tuple(a.shape), torch.allclose(a, (X * X.sum(1, keepdim=True)).T))

# out_dims=None for an output that does not depend on the batch
res = vmap(lambda x, c: (x * c, c * 2), in_dims=(0, None), out_dims=(0, None))(X, torch.tensor(3.0))
print("unbatched output:", res[1], tuple(res[0].shape))

# jacobian of a batched map: vmap over jacrev with in_dims=(0, None)
J = vmap(jacrev(affine, argnums=1), in_dims=(None, 0))(params, X)
print("batched jacobians:", [tuple(j.shape) for j in J])

for bad in [lambda: vmap(rbf, in_dims=(0, 0, None))(X, Y, ls),
            lambda: vmap(rbf, in_dims=(0, 1))(X, Y, ls),
            lambda: vmap(lambda x: x, in_dims=2)(X),
            lambda: vmap(affine, in_dims=(None, 0), out_dims=(0,))(params, X)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
