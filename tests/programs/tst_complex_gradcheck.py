# Complex-valued layers (as in audio / physics libraries) tested with gradcheck: holomorphic and
# non-holomorphic functions, custom Functions with a wrong conjugate, real<->complex boundaries.
import warnings
import torch
from torch.autograd import Function, gradcheck, gradgradcheck


def check(label, fn, inputs, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = gradcheck(fn, inputs, **kw)
        except RuntimeError as e:
            result = f"{type(e).__name__}:\n{e}"
    print(f"{label}: {result}")
    for w in caught:
        if "gradcheck" in str(w.message) or "precision" in str(w.message):
            print("  warning:", str(w.message).strip())


class ComplexSquare(Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensors
        return g * (2 * z).conj()


class WrongConj(Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensors
        return g * 2 * z  # missing .conj()


class Magnitude(Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z.abs()

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensors
        return g * z / z.abs()


z = torch.tensor([1 + 1j, -0.5 + 2j, 0.3 - 0.7j], dtype=torch.complex128, requires_grad=True)
r = torch.tensor([0.5, 1.5, -1.0], dtype=torch.float64, requires_grad=True)

check("ComplexSquare", ComplexSquare.apply, (z,))
check("WrongConj", WrongConj.apply, (z,))
check("Magnitude", Magnitude.apply, (z,))
check("abs builtin", torch.abs, (z,))
check("exp * conj", lambda t: t.exp() * t.conj(), (z,))
check("real -> complex (polar)", lambda m: torch.polar(m.abs() + 0.1, m), (r,))
check("complex -> real (angle)", torch.angle, (z,))
check("mixed inputs", lambda t, s: (t * s).sum(), (z, r))
check("view_as_real", lambda t: torch.view_as_real(t) ** 2, (z,))
check("complex64", lambda t: t * 2, (z.detach().to(torch.complex64).requires_grad_(),),
      atol=1e-2, rtol=1e-2)
check("fft", lambda t: torch.fft.fft(t), (z,))
check("fwd ComplexSquare-like", lambda t: t * t, (z,), check_forward_ad=True)
check("fwd exp", torch.exp, (z,), check_forward_ad=True, check_backward_ad=False)
print("gradgradcheck exp:", gradgradcheck(torch.exp, (z,)))
print("gradgradcheck abs**2:", gradgradcheck(lambda t: t.abs() ** 2, (z,)))
print("fast mode:", gradcheck(lambda t: (t * t).exp(), (z,), fast_mode=True),
      gradcheck(WrongConj.apply, (z,), fast_mode=True, raise_exception=False))
