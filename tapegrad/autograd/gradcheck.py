"""``gradcheck`` and ``gradgradcheck``: backward rules checked against finite differences.

The analytic Jacobian is built row by row with ``autograd.grad`` (one vector-Jacobian product per
output element); the numerical one column by column with central differences. Use float64 inputs:
in float32 the finite differences themselves are too coarse to judge anything.
"""
import warnings

import numpy as np

from ..tensor import Tensor
from .engine import grad as autograd_grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _differentiable(inputs):
    return [t for t in inputs if isinstance(t, Tensor) and t._requires_grad]


def _outputs(func, inputs):
    return [o for o in _as_tuple(func(*inputs)) if isinstance(o, Tensor) and
            o._array.dtype.kind == "f"]


def _numerical_jacobians(func, inputs, eps):
    """d(output)/d(input) for every (input, output) pair, by central differences computed in
    the inputs' and outputs' own dtypes, as PyTorch does (hence coarse in float32)."""
    wrt = _differentiable(inputs)
    outputs = _outputs(func, inputs)
    jacobians = [[np.zeros((t._array.size, o._array.size), o._array.dtype) for o in outputs]
                 for t in wrt]
    for i, t in enumerate(wrt):
        array = t._array  # perturbed in place, element by element, whatever its memory layout
        for k in range(array.size):
            index = np.unravel_index(k, array.shape)
            original = array[index]
            array[index] = original + eps
            plus = [o._array.flatten() for o in _outputs(func, inputs)]
            array[index] = original - eps
            minus = [o._array.flatten() for o in _outputs(func, inputs)]
            array[index] = original
            for j in range(len(outputs)):
                jacobians[i][j][k] = (plus[j] - minus[j]) / plus[j].dtype.type(2 * eps)
    return jacobians


def _analytical_jacobians(func, inputs):
    wrt = _differentiable(inputs)
    outputs = _outputs(func, inputs)
    jacobians = [[np.zeros((t._array.size, o._array.size), t._array.dtype) for o in outputs]
                 for t in wrt]
    for j, out in enumerate(outputs):
        if not out._requires_grad:
            continue
        for k in range(out._array.size):
            seed = np.zeros(out._array.size, dtype=out._array.dtype)
            seed[k] = 1
            grads = autograd_grad(out, wrt, Tensor._make(seed.reshape(out._array.shape)),
                                  retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    jacobians[i][j][:, k] = g._array.ravel()
    return jacobians


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              **_unused):
    """True when ``func``'s backward agrees with finite differences at ``inputs``."""
    inputs = _as_tuple(inputs)
    for index, t in enumerate(inputs):
        if isinstance(t, Tensor) and t._requires_grad and t._array.dtype != np.float64:
            warnings.warn(f"Input #{index} requires gradient and is not a double precision "
                          "floating point or complex. This check will likely fail if all the inputs "
                          "are not of double precision floating point or complex. ", UserWarning)
    if not _differentiable(inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")
    numerical = _numerical_jacobians(func, inputs, eps)
    analytical = _analytical_jacobians(func, inputs)
    for i, (num_row, ana_row) in enumerate(zip(numerical, analytical)):
        for j, (num, ana) in enumerate(zip(num_row, ana_row)):
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                if raise_exception:
                    raise GradcheckError(
                        f"Jacobian mismatch for output {j} with respect to input {i},\n"
                        f"numerical:{Tensor._make(num)!r}\nanalytical:{Tensor._make(ana)!r}\n")
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  raise_exception=True, **_unused):
    """gradcheck of the gradients themselves: checks rules run under ``create_graph``."""
    inputs = _as_tuple(inputs)
    rng = np.random.default_rng(0)
    if grad_outputs is None:
        outs = _outputs(func, inputs)
        grad_outputs = [Tensor._make(rng.standard_normal(o._array.shape)).requires_grad_()
                        for o in outs]
    grad_outputs = list(_as_tuple(grad_outputs))

    def first_derivatives(*args):
        outs = _outputs(func, args[:len(inputs)])
        grads = autograd_grad(outs, _differentiable(args[:len(inputs)]), args[len(inputs):],
                              create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, (*inputs, *grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
