"""Complex numbers: a complex tensor's parts, building one from parts, conjugation, the angle.

Gradients follow PyTorch's convention: for a real loss ``L`` of ``z = x + iy``, ``z.grad`` is
``dL/dx + i dL/dy``, so that ``z -= lr * z.grad`` descends. The rules here handle complex
numbers themselves; other primitives' rules are conjugated around by the engine (see
``registry.OpNode._apply_conjugated``).

Generic code calls ``x.conj()``, ``x.real`` or ``x.mH`` whatever the dtype; on a real tensor
PyTorch returns the tensor itself (no copy, no node), refuses ``imag``, and takes the angle of a
real number: 0 or pi.
"""

import numpy as np

from .. import dtypes
from . import elementwise as ew
from .broadcast import sum_to
from .creation import ones_like
from .inplace import apply_inplace
from .operands import check_overloads
from .registry import ELEMENTWISE, VIEW, primitive
from .shape import select

__all__ = ["conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg", "is_conj",
           "is_neg", "real", "imag", "angle", "adjoint", "complex", "polar", "view_as_real",
           "view_as_complex"]


def _false(input):
    """tapegrad conjugates eagerly: no tensor is a lazily conjugated or negated view."""
    return False


is_conj = is_neg = _false


def resolve_conj(input):
    return input


resolve_neg = resolve_conj


# ------------------------------------------------------------------------------ conjugation
@primitive("conj", node="ConjBackward0", group=ELEMENTWISE, lowering="{0}.conjugate()",
           complex_rule=True)
def _conj(a):
    return np.conj(a)


@_conj.vjp
def _(ctx, grad):
    return grad.conj()


def conj(input):
    """The complex conjugate (a copy: tapegrad has no lazily conjugated views); a real tensor
    itself."""
    return _conj(input) if input._array.dtype.kind == "c" else input


def conj_physical(input):
    """The conjugate, recorded as PyTorch's materialized one (``ConjPhysicalBackward0``)."""
    if input._array.dtype.kind != "c":
        return input
    result = _conj(input)
    if result._grad_fn is not None:
        result._grad_fn.__class__ = _conj.variant_node_class("ConjPhysicalBackward0")
    return result


def conj_physical_(input):
    """Conjugated in place (``ConjPhysicalBackward1``)."""
    if input._array.dtype.kind == "c":
        apply_inplace(_conj, input, [], {})
        node = input._grad_fn
        if node is not None and node.primitive is _conj:
            node.__class__ = _conj.variant_node_class("ConjPhysicalBackward1")
    return input


# ---------------------------------------------------------------------------------- the parts
def real(input):
    """The real part of a complex tensor, a view (writes to it change the tensor), taken as
    PyTorch does: a select of ``view_as_real``; a real tensor itself."""
    return select(view_as_real(input), -1, 0) if input._array.dtype.kind == "c" else input


def imag(input):
    if input._array.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return select(view_as_real(input), -1, 1)


@primitive("complex", node="ComplexBackward0", group=ELEMENTWISE, complex_rule=True,
           error=ew.broadcast_error)
def _complex(re, im):
    out = np.empty(np.broadcast_shapes(re.shape, im.shape),
                   dtypes.complex_of(dtypes.from_numpy_dtype(re.dtype)).numpy)
    out.real, out.imag = re, im
    return out


@_complex.vjp
def _(ctx, grad):
    need_re, need_im = ctx.needs_input_grad
    return (sum_to(real(grad), ctx.input_shapes[0]) if need_re else None,
            sum_to(imag(grad), ctx.input_shapes[1]) if need_im else None)


def complex(real, imag):
    """``real + i imag`` from two floating tensors of one dtype."""
    check_overloads("complex", ("Tensor real, Tensor imag, *, Tensor out = None",), real, imag)
    _check_parts(real, imag)
    if real._array.dtype == np.float16:
        _refuse_complex_half()
    return _complex(real, imag)


def _check_parts(first, second):
    """PyTorch's checks of ``complex``'s and ``polar``'s two real parts."""
    if any(t._array.dtype.kind != "f" for t in (first, second)):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_scalar_type(first)} and {_scalar_type(second)}")
    if first._array.dtype != second._array.dtype:
        raise RuntimeError(f"Expected object of scalar type {_scalar_type(first)} but got scalar "
                           f"type {_scalar_type(second)} for second argument")


def _refuse_complex_half():
    """PyTorch's result from float16 parts is ComplexHalf, which numpy cannot hold: the
    TypeError tapegrad gives for computing in that dtype."""
    dtypes.complex32.numpy  # noqa: B018  (the property raises)


def _scalar_type(t):
    return dtypes.SCALAR_TYPE_NAMES[t._array.dtype.name]


@primitive("polar", node="PolarBackward0", group=ELEMENTWISE, saves=("magnitude", "angle"),
           complex_rule=True, error=ew.broadcast_error)
def _polar(magnitude, angle):
    return _complex.forward(magnitude * np.cos(angle), magnitude * np.sin(angle))


@_polar.vjp
def _(ctx, grad):
    magnitude, angle = ctx.saved
    need_abs, need_angle = ctx.needs_input_grad
    # z = r u with u = e^{i theta}: dL/dr = Re(conj(g) u) and dL/dtheta = Re(conj(g) i z)
    unit = polar(ones_like(angle), angle)
    return (sum_to(real(grad.conj() * unit), ctx.input_shapes[0]) if need_abs else None,
            sum_to(real(grad.conj() * unit * magnitude * 1j), ctx.input_shapes[1])
            if need_angle else None)


def polar(abs, angle):
    """``abs * (cos(angle) + i sin(angle))``."""
    check_overloads("polar", ("Tensor abs, Tensor angle, *, Tensor out = None",), abs, angle)
    _check_parts(abs, angle)
    if abs._array.dtype == np.float16:
        raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
    return _polar(abs, angle)


# --------------------------------------------------------------------- views as real numbers
@primitive("view_as_real", node="ViewAsRealBackward0", group=VIEW, is_view=True,
           complex_rule=True)
def _view_as_real(a):
    return a[..., None].view(a.real.dtype)


@_view_as_real.vjp
def _(ctx, grad):
    return view_as_complex(grad.contiguous())


def view_as_real(input):
    """A complex tensor's memory as real numbers: a last dimension of size 2 holds (real, imag)."""
    if input._array.dtype.kind != "c":
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return _view_as_real(input)


@primitive("view_as_complex", node="ViewAsComplexBackward0", group=VIEW, is_view=True,
           complex_rule=True)
def _view_as_complex(a):
    return a.view(dtypes.complex_of(dtypes.from_numpy_dtype(a.dtype)).numpy)[..., 0]


@_view_as_complex.vjp
def _(ctx, grad):
    return view_as_real(grad)


def view_as_complex(input):
    """Pairs of real numbers (a last dimension of size 2, stride 1) viewed as complex numbers."""
    array = input._array
    if array.dtype.kind != "f":
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, "
                           f"but got a tensor of scalar type: {_scalar_type(input)}")
    if array.dtype == np.float16:
        _refuse_complex_half()
    if not array.ndim or array.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if not array.size:  # nothing laid out (numpy's strides of a broadcast empty array are 0)
        return _view_as_complex(input)
    if array.strides[-1] != array.itemsize:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(stride % (2 * array.itemsize) for stride in array.strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    return _view_as_complex(input)


# ---------------------------------------------------------------------------------- the angle
def _real_angle(a):
    """pi for a negative number, 0 otherwise, NaN for NaN; an integer's angle is a float in the
    default dtype, as PyTorch computes it."""
    if a.dtype.kind in "biu":
        a = a.astype(dtypes.get_default_dtype().numpy)
    return np.where(a < 0, a.dtype.type(np.pi), np.where(np.isnan(a), a, 0)).astype(a.dtype)


# A real angle is piecewise constant: its gradient is zero (AngleBackward0 says so).
_angle_of_real = ew._constant_op(
    "angle", "AngleBackward0", _real_angle,
    "(3.141592653589793 if {0} < 0 else ({0} if {0} != {0} else 0.0))")


@primitive("complex_angle", node="AngleBackward0", group=ELEMENTWISE, saves=("a",),
           complex_rule=True)
def _complex_angle(a):
    return np.angle(a)


@_complex_angle.vjp
def _(ctx, grad):
    (z,) = ctx.saved
    # d atan2(y, x) = (x dy - y dx) / |z|^2, as the complex number i z / |z|^2 (0 at z = 0)
    squared = real(z * z.conj())
    return ew.where(squared == 0, 0, grad * z * 1j / squared)


def angle(input):
    """The argument of each complex number, in (-pi, pi]; of a real number, 0 or pi."""
    if input._array.dtype.kind == "c":
        return _complex_angle(input)
    return _angle_of_real(input)


@primitive("complex_sgn", node="SgnBackward0", group=ELEMENTWISE, saves=("a", "out"),
           complex_rule=True)
def _complex_sgn(a):
    magnitude = np.abs(a)
    return np.where(magnitude == 0, 0, a / np.where(magnitude == 0, 1, magnitude)).astype(a.dtype)


@_complex_sgn.vjp
def _(ctx, grad):
    z, unit = ctx.saved
    # s = z / |z| moves with z's direction only: (g - s Re(g conj(s))) / |z|, 0 at z = 0
    magnitude = z.abs()
    along = unit * real(grad * unit.conj())
    return ew.where(magnitude == 0, 0, (grad - along) / magnitude)


def complex_sgn(input):
    return _complex_sgn(input)


def adjoint(input):
    """The conjugate transpose of a (batch of) matrices."""
    if input.dim() < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {input.dim()}-D tensor.")
    return conj(input.transpose(-2, -1))
