"""``embedding`` as one primitive, PyTorch's ``EmbeddingBackward0``.

Its backward adds the incoming rows into a zero table (``index_add``, itself differentiable),
leaving the padding row at zero: that row is the padding vector by design, not a learned one.
"""
from .creation import zeros
from .registry import OTHER, primitive
from .scatter import _index_add

__all__ = ["embedding"]


@primitive("embedding", node="EmbeddingBackward0", group=OTHER, saves=("indices",),
           nondifferentiable=("indices",))
def _embedding(weight, indices, *, padding_idx, scale_grad_by_freq):
    return weight[indices]


@_embedding.vjp
def _(ctx, grad, padding_idx, scale_grad_by_freq):
    (indices,) = ctx.saved
    rows, width = ctx.input_shapes[0]
    if padding_idx is not None:
        grad = grad * (indices != padding_idx).unsqueeze(-1).to(grad.dtype)
    if scale_grad_by_freq:  # each row's gradient divided by how often the batch picked it
        counts = indices.reshape(-1).bincount(minlength=rows)
        grad = grad / counts[indices].unsqueeze(-1).to(grad.dtype)
    table = zeros(rows, width, dtype=grad.dtype)
    return _index_add(table, indices.reshape(-1), grad.reshape(-1, width), dim=0, alpha=1), None


def embedding(weight, indices, padding_idx=None, scale_grad_by_freq=False):
    """Rows of the 2-D ``weight`` picked by the integer tensor ``indices``."""
    if indices._array.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got {indices.type()} instead (while "
                           "checking arguments for embedding)")
    if weight._array.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    values = indices._array
    if values.size and (values.min() < 0 or values.max() >= weight._array.shape[0]):
        raise IndexError("index out of range in self")
    return _embedding(weight, indices, padding_idx=padding_idx,
                      scale_grad_by_freq=bool(scale_grad_by_freq))
