"""``grad`` and ``grad_and_value``: the gradient of a scalar function, as a function."""
import functools

from .. import ops
from ..tensor import Tensor
from ..utils import _pytree
from ._linearization import Linearization

__all__ = ["grad", "grad_and_value"]

_API = "grad_and_value(f)(*args)"


def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning ``(gradient, value)`` of ``func`` with respect to the arguments
    at ``argnums`` (``(gradient, (value, aux))`` with ``has_aux``); the gradient has the
    structure of those arguments (a tuple of them when ``argnums`` is a tuple)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        linear = Linearization(func, args, kwargs, argnums, has_aux, _API, _check_scalar)
        _check_real(linear.output)
        gradient = linear.pull([ops.ones_like(linear.output)])
        gradient = linear.unwrap(_pytree.unflatten(gradient, linear.input_spec))
        value = linear.unwrap(linear.output)
        return gradient, ((value, linear.unwrap(linear.aux)) if has_aux else value)

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """A function returning the gradient of ``func`` (``(gradient, aux)`` with ``has_aux``);
    ``grad(grad(f))`` is the second derivative."""
    with_value = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = with_value(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def _check_scalar(output):
    if not isinstance(output, Tensor):
        raise RuntimeError(f"{_API}: Expected f(*args) to return a Tensor, got {type(output)}")
    if output.dim() != 0:
        raise RuntimeError(f"{_API}: Expected f(*args) to return a scalar Tensor, got tensor "
                           f"with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                           "APIs instead?")


def _check_real(output):
    """The implicit grad_output of ``autograd.grad``, which PyTorch's grad calls only for an
    output that requires grad: a complex one independent of the inputs gets zero gradients."""
    if output.is_complex() and output.requires_grad:
        raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                           f"{output.dtype}")
