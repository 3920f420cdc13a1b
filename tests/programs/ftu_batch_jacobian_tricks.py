# Batch Jacobians and Hessians from the torch.func "Jacobians, Hessians, hvp, vhp, and more"
# tutorial: vmap(jacrev) vs the sum-over-batch trick with movedim, jacfwd vs jacrev agreement,
# chunk_size, argnums tuples, and the batch Hessian via vmap(hessian) / jacrev(jacrev).
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev, vmap

torch.set_default_dtype(torch.float64)

D, O, B = 4, 3, 5
weight = torch.sin(torch.arange(O * D, dtype=torch.float64).view(O, D) * 0.9)
bias = torch.cos(torch.arange(O, dtype=torch.float64))
x = torch.linspace(-1, 1, B * D).view(B, D)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


# Jacobian w.r.t. the input of one example
jac = jacrev(predict, argnums=2)(weight, bias, x[0])
print("single:", tuple(jac.shape))
print(jac.round(decimals=5))

# batch Jacobian, two ways
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jac = compute_batch_jacobian(weight, bias, x)
print("vmap(jacrev):", tuple(batch_jac.shape))


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jac2 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print("sum trick:", tuple(batch_jac2.shape), torch.allclose(batch_jac, batch_jac2))

# forward vs reverse mode, and chunk_size
jf = vmap(jacfwd(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, x)
jr_chunked = vmap(jacrev(predict, argnums=2, chunk_size=1), in_dims=(None, None, 0))(weight, bias, x)
print("jacfwd == jacrev:", torch.allclose(jf, batch_jac), "chunked:", torch.allclose(jr_chunked, batch_jac))

# Jacobians w.r.t. the parameters: argnums as a tuple gives a tuple of blocks
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x[1])
print("d out/d weight:", tuple(jw.shape), "d out/d bias:", tuple(jb.shape))
print(jb.round(decimals=5))
jw_f, jb_f = jacfwd(predict, argnums=(0, 1))(weight, bias, x[1])
print("params fwd == rev:", torch.allclose(jw, jw_f), torch.allclose(jb, jb_f))

# batch Hessian of a scalar per-example energy
def energy(x):
    return predict(weight, bias, x).pow(2).sum()


batch_hess = vmap(hessian(energy))(x)
batch_hess2 = vmap(jacrev(jacrev(energy)))(x)
batch_hess3 = vmap(jacfwd(jacfwd(energy)))(x)
print("batch hessian:", tuple(batch_hess.shape), torch.allclose(batch_hess, batch_hess2),
      torch.allclose(batch_hess, batch_hess3))
print("symmetric:", torch.allclose(batch_hess, batch_hess.transpose(-1, -2)))
print(batch_hess[0].round(decimals=5))
print("traces (Laplacians):", batch_hess.diagonal(dim1=-2, dim2=-1).sum(-1).round(decimals=5))

# a Hessian w.r.t. two arguments: nested tuples of blocks
H = hessian(lambda w, b: predict(w, b, x[2]).sum(), argnums=(0, 1))(weight, bias)
print([[tuple(h.shape) for h in row] for row in H])
print(H[1][1].round(decimals=5))

# chunk_size must be positive
try:
    jacrev(energy, chunk_size=0)
except ValueError as e:
    print("ValueError:", e)
