"""``jacrev``, ``jacfwd`` and ``hessian``: full Jacobians as functions.

The block for output ``o`` and input ``i`` has shape ``o.shape + i.shape``; blocks are nested
as the outputs are, and inside as the differentiated arguments are. ``jacrev`` takes one
vector–Jacobian product per output element (a row), ``jacfwd`` one Jacobian–vector product per
input element (a column); each calls ``func`` once. ``hessian`` is ``jacfwd(jacrev(f))``.
"""
import functools

from .. import ops
from ..autograd.function import functorch_transform
from ..tensor import Tensor
from ..utils import _pytree
from . import _randomness
from .products import JVP_API, check_tensor_outputs, reverse_linearization
from ._arguments import differentiated_positions
from ._linearization import Linearization

__all__ = ["jacrev", "jacfwd", "hessian"]


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """The Jacobian of ``func`` by reverse mode. ``chunk_size`` is accepted for PyTorch's
    signature: rows are computed one at a time whatever it is."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args):
        _refuse_complex("jacrev", args, "inputs")
        linear = reverse_linearization(func, args, argnums, has_aux)
        outputs = linear.flat_outputs
        _refuse_complex("jacrev", outputs, "outputs")
        blocks = []
        for k, out in enumerate(outputs):
            rows = [linear.pull([basis if j == k else None for j in range(len(outputs))])
                    for basis in _basis(out)]
            blocks.append([_assemble(rows, i, out, inp, by_rows=True)
                           for i, inp in enumerate(linear.flat_inputs)])
        return _result(linear, blocks, has_aux)

    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of ``func`` by forward products. ``func`` runs once, under ``randomness``
    as in ``vmap``: ``"error"`` makes a random operation raise, ``"different"`` and ``"same"``
    let it draw (once, so the columns share the draw). PyTorch vmaps forward products over the
    columns, so ``func`` also runs as under ``vmap`` for the Functions it calls."""

    @functools.wraps(func)
    def wrapper(*args):
        _refuse_complex("jacfwd", args, "inputs")
        _refuse_non_tensors(args, argnums)
        _randomness.check(randomness)
        with _randomness.drawing(randomness), functorch_transform("vmap", randomness):
            linear = Linearization(func, args, {}, argnums, has_aux, JVP_API,
                                   check_tensor_outputs(JVP_API), transform="jvp",
                                   tangent_like=_contiguous_tangent)
        _refuse_complex("jacfwd", linear.flat_outputs, "outputs")
        inputs = linear.flat_inputs
        columns = [[linear.push([basis if j == i else None for j in range(len(inputs))])
                    for basis in _basis(inp)] for i, inp in enumerate(inputs)]
        blocks = [[_assemble(columns[i], k, out, inp, by_rows=False)
                   for i, inp in enumerate(inputs)]
                  for k, out in enumerate(linear.flat_outputs)]
        return _result(linear, blocks, has_aux)

    return wrapper


def hessian(func, argnums=0):
    """The Hessian of a scalar ``func``: forward over reverse, as PyTorch computes it."""
    return jacfwd(jacrev(func, argnums), argnums)


def _refuse_non_tensors(args, argnums):
    """PyTorch's jacfwd counts the elements of the differentiated arguments first (so fails as
    ``numel`` does on anything else)."""
    for position in differentiated_positions(argnums, len(args)):
        for leaf in _pytree.flatten(args[position])[0]:
            if not isinstance(leaf, Tensor):
                raise AttributeError(f"'{type(leaf).__name__}' object has no attribute 'numel'")


def _contiguous_tangent(primal):
    """The layout of one of PyTorch's basis tangents (an example of a vmapped basis)."""
    return ops.zeros(tuple(primal.shape), dtype=primal.dtype)


def _refuse_complex(api, tree, what):
    """PyTorch's Jacobians are of real functions: every tensor among all the positional
    arguments (not only the differentiated ones) and the outputs (not ``aux``) must be real."""
    for index, leaf in enumerate(_pytree.flatten(tree)[0]):
        if isinstance(leaf, Tensor) and leaf.is_complex():
            raise RuntimeError(f"{api}: Expected all {what} to be real but received complex "
                               f"tensor at flattened input idx: {index}")


def _basis(tensor):
    """The one-hot tensors shaped like ``tensor``, one per element, in order."""
    for index in range(tensor.numel()):
        one_hot = ops.zeros(tensor.numel(), dtype=tensor.dtype)
        one_hot[index] = 1
        yield one_hot.view(tensor.shape)


def _assemble(products, position, out, inp, by_rows):
    """The ``out.shape + inp.shape`` block from the products (per row: one tensor per input;
    per column: one per output, ``None`` for an output the input does not reach)."""
    pieces = [product[position] for product in products]
    shape = tuple(out.shape) + tuple(inp.shape)
    if not pieces:
        return ops.zeros(shape, dtype=out.dtype)
    if by_rows:
        return ops.stack(pieces).view(shape)
    pieces = [ops.zeros_like(out) if piece is None else piece for piece in pieces]
    return ops.stack(pieces, dim=-1).view(shape)


def _result(linear, blocks, has_aux):
    """The blocks nested as PyTorch nests them (outputs outside, differentiated arguments
    inside), detached unless something outside sees them; with ``(…, aux)``."""
    per_output = [_pytree.unflatten(row, linear.input_spec) for row in blocks]
    jacobian = linear.unwrap(_pytree.unflatten(per_output, linear.output_spec))
    return (jacobian, linear.unwrap(linear.aux)) if has_aux else jacobian
