# Double precision as scientific code sets it up: the legacy
# torch.set_default_tensor_type(torch.DoubleTensor) line found in many PINN / physics repos,
# torch.set_default_dtype(torch.float64), torch.DoubleTensor(...) constructors, .type() strings,
# and verifying hand-written derivatives with torch.autograd.gradcheck / gradgradcheck (which
# wants double inputs), including a custom autograd.Function for a physics kernel.
import torch
from torch.autograd import gradcheck, gradgradcheck

torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.get_default_dtype(), torch.ones(2).dtype, torch.Tensor([1.5]).dtype)
x = torch.linspace(0, 1, 4)
print(x, x.type(), torch.arange(3).type())
torch.set_default_tensor_type(torch.FloatTensor)
print(torch.get_default_dtype(), torch.zeros(1).type())

torch.set_default_dtype(torch.float64)
print(torch.tensor([0.1]) + torch.tensor([0.2]), torch.tensor(1 / 3).item())
print(torch.tensor([1.0, 2.0], dtype=torch.float32), torch.DoubleTensor([1, 2]))
print(torch.ones(2).type(torch.FloatTensor), torch.ones(2).type("torch.DoubleTensor").dtype)
print(isinstance(torch.ones(1), torch.DoubleTensor), torch.nn.Linear(2, 2).weight.dtype)


class LennardJones(torch.autograd.Function):
    """Pair energy 4 (r^-12 - r^-6) with a hand-written derivative."""

    @staticmethod
    def forward(ctx, r):
        ctx.save_for_backward(r)
        return 4 * (r.pow(-12) - r.pow(-6))

    @staticmethod
    def backward(ctx, grad_out):
        r, = ctx.saved_tensors
        return grad_out * 4 * (-12 * r.pow(-13) + 6 * r.pow(-7))


class LennardJonesWrong(LennardJones):
    @staticmethod
    def backward(ctx, grad_out):
        r, = ctx.saved_tensors
        return grad_out * 4 * (-12 * r.pow(-13) + 6 * r.pow(-6))


r = torch.tensor([0.95, 1.1, 1.5, 2.0], requires_grad=True)
print(LennardJones.apply(r))
print(gradcheck(LennardJones.apply, (r,), eps=1e-6, atol=1e-4))
print(gradgradcheck(LennardJones.apply, (r,)))
print(gradcheck(LennardJonesWrong.apply, (r,), raise_exception=False))
try:
    gradcheck(LennardJonesWrong.apply, (r,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

# force = -dE/dr on a few particles from pairwise distances
pos = torch.tensor([[0.0, 0.0], [1.1, 0.0], [0.0, 1.3]], requires_grad=True)
i, j = torch.triu_indices(3, 3, offset=1)
dist = (pos[i] - pos[j]).norm(dim=1)
energy = LennardJones.apply(dist).sum()
force, = torch.autograd.grad(-energy, pos)
print(dist, energy, force, force.sum(0).abs().max() < 1e-12)
print(gradcheck(lambda p: LennardJones.apply((p[i] - p[j]).norm(dim=1)).sum(), (pos,)))

# gradcheck on library functions used in physics models
A = torch.tensor([[3.0, 0.5], [0.5, 2.0]], requires_grad=True)
b = torch.tensor([1.0, -1.0], requires_grad=True)
print(gradcheck(torch.linalg.solve, (A, b)), gradcheck(torch.logdet, (A,)))
print(gradgradcheck(lambda t: t.exp().cumsum(0), (r,)), gradcheck(torch.special.erf, (r,)))
try:
    gradcheck(torch.sin, (r.detach(),))
except ValueError as e:
    print("ValueError:", e)
r32 = torch.tensor([0.5, 1.0], dtype=torch.float32, requires_grad=True)
print(gradcheck(torch.sin, (r32,), raise_exception=False))
