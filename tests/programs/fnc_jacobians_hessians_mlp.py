# Jacobians and Hessians with torch.func (the "Jacobians, Hessians, hvp, vhp, and more" tutorial):
# jacrev vs jacfwd of a small MLP w.r.t. its input and, through functional_call, its parameters;
# batch Jacobians with vmap(jacrev); hessian of a scalar loss; hvp as forward-over-reverse.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.set_default_dtype(torch.float64)

model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).view(p.shape) * 0.7)
model.requires_grad_(False)  # only input derivatives below; parameters go through functional_call

x = torch.tensor([0.3, -0.2, 0.8])

jac_rev = jacrev(model)(x)
jac_fwd = jacfwd(model)(x)
print("jacobian", tuple(jac_rev.shape), torch.allclose(jac_rev, jac_fwd))
print(jac_rev)
ref = torch.autograd.functional.jacobian(model, x)
print("matches autograd.functional:", torch.allclose(jac_rev, ref))

# Jacobian w.r.t. the parameters: a dict of blocks shaped output.shape + param.shape
params = {k: v.detach() for k, v in model.named_parameters()}
jac_params = jacrev(lambda p, inp: functional_call(model, p, (inp,)))(params, x)
print({k: tuple(v.shape) for k, v in jac_params.items()})
print("d out / d last bias:\n", jac_params["2.bias"])

# per-example Jacobians of a batch
batch = torch.stack([x, x.flip(0), x * 2, -x])
batch_jac = vmap(jacrev(model))(batch)
print("batch jacobian", tuple(batch_jac.shape),
      torch.allclose(batch_jac[2], jacrev(model)(batch[2])))
print("frobenius norms:", [f"{n:.5f}" for n in batch_jac.flatten(1).norm(dim=1).tolist()])

# multiple argnums
def predict(weight, bias, inp):
    return torch.tanh(inp @ weight.T + bias)


w, b = params["0.weight"], params["0.bias"]
jw, jb = jacrev(predict, argnums=(0, 1))(w, b, x)
print("argnums=(0, 1):", tuple(jw.shape), tuple(jb.shape))
print("jb is diagonal:", torch.allclose(jb, torch.diag(jb.diagonal())))


def loss(inp):
    return (model(inp) ** 2).sum()


H = hessian(loss)(x)
print("hessian", tuple(H.shape), "symmetric:", torch.allclose(H, H.T))
print(H)
print("jacfwd(jacrev) == jacrev(jacrev):", torch.allclose(jacfwd(jacrev(loss))(x), jacrev(jacrev(loss))(x)))


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def vhp(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


v = torch.tensor([1.0, 0.0, -1.0])
print("hvp:", hvp(loss, (x,), (v,)))
print("vhp:", vhp(loss, (x,), (v,))[0])
print("H @ v:", H @ v)
value, vjp_fn = vjp(model, x)
print("vjp:", value, vjp_fn(torch.tensor([1.0, 1.0])))
