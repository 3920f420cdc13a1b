# The empirical neural tangent kernel, as in the torch.func "Neural Tangent Kernels" tutorial:
# once by Jacobian contraction (vmap(jacrev) over parameters + einsum), once by NTK-vector
# products (vjp, then jvp of the other input, vmapped over a basis), with trace/diagonal variants.
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.set_default_dtype(torch.float64)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.83 + i).view(p.shape) * 0.6)

x_train = torch.cos(torch.arange(12, dtype=torch.float64).view(4, 3))
x_test = torch.sin(torch.arange(9, dtype=torch.float64).view(3, 3) + 0.5)

params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = [j.flatten(2) for j in jac1.values()]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = [j.flatten(2) for j in jac2.values()]
    einsum_expr = {"full": "Naf,Mbf->NMab", "trace": "Naf,Maf->NM", "diagonal": "Naf,Maf->NMa"}[compute]
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)
    return result


jac = vmap(jacrev(fnet_single), (None, 0))(params, x_train)
print({k: tuple(v.shape) for k, v in jac.items()})

ntk = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print("full NTK", tuple(ntk.shape))
print(ntk[:, :, 0, 0].round(decimals=5))
ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
print("NTK-vector products agree:", torch.allclose(ntk, ntk_vps))
for compute in ("trace", "diagonal"):
    a = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, compute)
    b = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, compute)
    print(compute, tuple(a.shape), torch.allclose(a, b))

gram = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_train, "trace")
print("train Gram matrix symmetric:", torch.allclose(gram, gram.T),
      "positive semi-definite:", bool((torch.linalg.eigvalsh(gram) > -1e-10).all()))
print(gram.round(decimals=4))
