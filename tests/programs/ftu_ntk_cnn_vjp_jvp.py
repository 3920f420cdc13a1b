# Empirical NTK of a small CNN, following the torch.func "Neural Tangent Kernels" tutorial:
# Jacobian contraction with vmap(jacrev(fnet_single)) and einsum for 'full', 'trace' and
# 'diagonal', then NTK-vector products (vjp of one input, jvp of the other, vmapped over a basis).
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.set_default_dtype(torch.float64)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        x = self.conv1(x).relu()
        x = self.conv2(x).relu()
        x = x.mean(dim=(-1, -2))
        return self.fc(x)


net = CNN()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.45 + i).view(p.shape) * 0.4)

x_train = torch.cos(torch.arange(4 * 36, dtype=torch.float64)).view(4, 1, 6, 6)
x_test = torch.sin(torch.arange(3 * 36, dtype=torch.float64) * 0.7).view(3, 1, 6, 6)
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    else:
        assert False
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

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "full":
        return result
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)


full = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "full")
print("full:", tuple(full.shape))
print(full[0].round(decimals=6))
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace")
diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal")
print("trace:", tuple(trace.shape), torch.allclose(trace, full.diagonal(dim1=-2, dim2=-1).sum(-1)))
print("diagonal:", tuple(diag.shape), torch.allclose(diag, full.diagonal(dim1=-2, dim2=-1)))
print(trace.round(decimals=6))

full_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
print("ntk-vps full:", tuple(full_vps.shape), torch.allclose(full, full_vps, atol=1e-10))
tr_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, "trace")
print("ntk-vps trace:", torch.allclose(trace, tr_vps, atol=1e-10))

# the kernel of the training set with itself is symmetric positive semi-definite
k_train = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_train, "trace")
print("symmetric:", torch.allclose(k_train, k_train.T))
print("eigenvalues >= 0:", bool((torch.linalg.eigvalsh(k_train) > -1e-10).all()))
