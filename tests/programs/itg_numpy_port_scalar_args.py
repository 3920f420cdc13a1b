# Porting NumPy integer code to PyTorch: np.gcd(a, 6), np.fmod(-7, a), np.arctan2(y, 1.0),
# np.logical_and(m, 1) take Python numbers anywhere, but many torch functions want Tensors;
# this prints which spellings work and the first line of the errors for the ones that don't.
import torch

a = torch.tensor([12, -18, 7, 0, 30])
y = torch.tensor([1.0, -1.0, 0.5])
m = a > 0


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label:<28} ok   {out}")
    except (TypeError, RuntimeError) as e:
        print(f"{label:<28} {type(e).__name__}: {str(e).splitlines()[0]}")


attempt("torch.gcd(a, 6)", lambda: torch.gcd(a, 6))
attempt("torch.gcd(a, tensor(6))", lambda: torch.gcd(a, torch.tensor(6)))
attempt("torch.lcm(a, 4)", lambda: torch.lcm(a, 4))
attempt("torch.lcm(a, full_like)", lambda: torch.lcm(a, torch.full_like(a, 4)))
attempt("torch.fmod(a, 5)", lambda: torch.fmod(a, 5))
attempt("torch.fmod(-7, a)", lambda: torch.fmod(-7, a))
attempt("torch.fmod(tensor(-7), a)", lambda: torch.fmod(torch.tensor(-7), a.clamp(min=1)))
attempt("torch.remainder(-7, a)", lambda: torch.remainder(-7, a.clamp(min=1)))
attempt("torch.atan2(y, 1.0)", lambda: torch.atan2(y, 1.0))
attempt("torch.atan2(y, ones_like)", lambda: torch.atan2(y, torch.ones_like(y)))
attempt("torch.hypot(y, 2.0)", lambda: torch.hypot(y, 2.0))
attempt("torch.logaddexp(y, 0.0)", lambda: torch.logaddexp(y, 0.0))
attempt("torch.logical_and(m, 1)", lambda: torch.logical_and(m, 1))
attempt("torch.logical_or(m, tensor)", lambda: torch.logical_or(m, torch.tensor(True)))
attempt("torch.logical_xor(0, m)", lambda: torch.logical_xor(0, m))
attempt("torch.eq(2, a)", lambda: torch.eq(2, a))
attempt("torch.eq(a, 2)", lambda: torch.eq(a, 2))
attempt("torch.gt(0, a)", lambda: torch.gt(0, a))
attempt("torch.isclose(y, 0.5)", lambda: torch.isclose(y, 0.5))
attempt("torch.isclose(y, tensor)", lambda: torch.isclose(y, torch.tensor(0.5)))
attempt("torch.copysign(3, y)", lambda: torch.copysign(3, y))
attempt("torch.copysign(y, -1)", lambda: torch.copysign(y, -1))
attempt("torch.ldexp(y, 3)", lambda: torch.ldexp(y, 3))
attempt("torch.ldexp(y, tensor(3))", lambda: torch.ldexp(y, torch.tensor(3)))
attempt("torch.maximum(a, 0)", lambda: torch.maximum(a, 0))
attempt("torch.clamp_min(a, 0)", lambda: torch.clamp_min(a, 0))
attempt("torch.clamp_min(0, a)", lambda: torch.clamp_min(0, a))
attempt("torch.dist(y, 0.0)", lambda: torch.dist(y, 0.0))
attempt("torch.complex(y, 0.0)", lambda: torch.complex(y, 0.0))
attempt("torch.polar(1.0, y)", lambda: torch.polar(1.0, y))
attempt("torch.rsub(1, a)", lambda: torch.rsub(1, a))
attempt("torch.rsub(a, 1)", lambda: torch.rsub(a, 1))
attempt("torch.pow(2, a.abs())", lambda: torch.pow(2, a.abs() % 5))
attempt("torch.bitwise_and(7, a)", lambda: torch.bitwise_and(7, a))
attempt("torch.bitwise_left_shift(1, a)", lambda: torch.bitwise_left_shift(1, a.abs() % 8))
attempt("torch.nextafter(y, 2.0)", lambda: torch.nextafter(y, 2.0))
attempt("torch.xlogy(2, y.abs())", lambda: torch.xlogy(2, y.abs()))
attempt("torch.heaviside(y, 0.5)", lambda: torch.heaviside(y, 0.5))
