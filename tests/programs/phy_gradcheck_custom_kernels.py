# Verifying hand-written backward formulas of physics kernels the way research code does:
# torch.autograd.gradcheck / gradgradcheck in float64, a backward built from differentiable ops
# (so double backward works) versus one decorated with @once_differentiable, ctx.needs_input_grad,
# mark_non_differentiable outputs, and the errors users hit (float32 inputs, wrong formulas).
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable


VERBOSE = True


class LennardJones(Function):
    """Pairwise LJ energy 4 eps ((s/r)^12 - (s/r)^6) summed over pairs, returns energy and #pairs."""

    @staticmethod
    def forward(ctx, pos, sigma):
        diff = pos.unsqueeze(1) - pos.unsqueeze(0)
        r2 = (diff ** 2).sum(-1) + torch.eye(pos.shape[0], dtype=pos.dtype)
        mask = 1.0 - torch.eye(pos.shape[0], dtype=pos.dtype)
        s6 = (sigma ** 2 / r2) ** 3
        energy = 0.5 * (4 * (s6 ** 2 - s6) * mask).sum()
        n_pairs = torch.tensor(pos.shape[0] * (pos.shape[0] - 1) // 2)
        ctx.save_for_backward(pos, sigma)
        ctx.mark_non_differentiable(n_pairs)
        return energy, n_pairs

    @staticmethod
    def backward(ctx, g_energy, g_pairs):
        pos, sigma = ctx.saved_tensors
        if VERBOSE:
            print("  needs_input_grad", ctx.needs_input_grad)
        diff = pos.unsqueeze(1) - pos.unsqueeze(0)
        r2 = (diff ** 2).sum(-1) + torch.eye(pos.shape[0], dtype=pos.dtype)
        mask = 1.0 - torch.eye(pos.shape[0], dtype=pos.dtype)
        s6 = (sigma ** 2 / r2) ** 3
        dE_dr2 = 4 * (-6 * s6 ** 2 + 3 * s6) / r2 * mask
        grad_pos = grad_sigma = None
        if ctx.needs_input_grad[0]:
            grad_pos = g_energy * 2 * (dE_dr2.unsqueeze(-1) * diff).sum(1)
        if ctx.needs_input_grad[1]:
            grad_sigma = g_energy * 0.5 * (4 * (12 * s6 ** 2 - 6 * s6) / sigma * mask).sum()
        return grad_pos, grad_sigma


pos = torch.tensor([[0.0, 0.0], [1.1, 0.1], [0.2, 1.2], [1.3, 1.0]], dtype=torch.float64, requires_grad=True)
sigma = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
E, n = LennardJones.apply(pos, sigma)
print(f"E={E.item():.6f} pairs={n.item()} n.requires_grad={n.requires_grad}")
E.backward()
forces = -pos.grad
print("forces", forces)
print("net force ~ 0:", forces.sum(0).abs().max().item() < 1e-12)
print("dE/dsigma %.6f" % sigma.grad.item())

VERBOSE = False
print("gradcheck:", gradcheck(lambda p, s: LennardJones.apply(p, s)[0], (pos, sigma)))
print("gradgradcheck:", gradgradcheck(lambda p, s: LennardJones.apply(p, s)[0], (pos, sigma)))

# only positions need grad -> needs_input_grad (True, False)
VERBOSE = True
E, _ = LennardJones.apply(pos, sigma.detach())
E.backward()


class Morse(Function):
    @staticmethod
    def forward(ctx, r, a):
        e = torch.exp(-a * (r - 1.0))
        ctx.save_for_backward(r, a, e)
        return (1 - e) ** 2

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        r, a, e = ctx.saved_tensors
        return g * 2 * (1 - e) * a * e, g * 2 * (1 - e) * (r - 1.0) * e


r = torch.linspace(0.8, 2.0, 5, dtype=torch.float64, requires_grad=True)
a = torch.full((5,), 1.5, dtype=torch.float64, requires_grad=True)
print("morse gradcheck:", gradcheck(Morse.apply, (r, a)))
V = Morse.apply(r, a)
dV, = torch.autograd.grad(V.sum(), r, create_graph=True)
print("dV", dV.detach(), dV.requires_grad)
try:
    dV.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# gradcheck on float32 inputs: the finite differences are too noisy
r32 = r.detach().float().requires_grad_()
a32 = a.detach().float().requires_grad_()
ok = gradcheck(Morse.apply, (r32, a32), raise_exception=False)
print("float32 gradcheck passes:", ok)
try:
    gradcheck(Morse.apply, (r32, a32), eps=1e-6, atol=1e-5)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print("fast_mode:", gradcheck(Morse.apply, (r, a), fast_mode=True))


# a classic bug: the backward adds a workspace buffer that it also updates in place, so running
# backward twice with the same grad_output gives (slightly) different answers
_workspace = torch.zeros(5, dtype=torch.float64)


class Harmonic(Function):
    @staticmethod
    def forward(ctx, r):
        ctx.save_for_backward(r)
        return 0.5 * 3.0 * (r - 1.0) ** 2

    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        _workspace.add_(1e-4)   # e.g. a leftover running correction
        return g * (3.0 * (r - 1.0) + _workspace)


try:
    print(gradcheck(Harmonic.apply, (r,), atol=1e-2, rtol=1e-2))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
_workspace.zero_()
print("with nondet_tol:", gradcheck(Harmonic.apply, (r,), atol=1e-2, rtol=1e-2, nondet_tol=1e-2))
