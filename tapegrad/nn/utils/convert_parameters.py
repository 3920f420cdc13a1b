"""Parameters as one flat vector and back (for optimisers and tools that want a single vector)."""
from ... import ops
from ..._runtime import typename
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters viewed flat and concatenated, in order (recorded: it carries gradients)."""
    return ops.cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Point each parameter's ``.data`` at the next slice of ``vec``, in order: as in PyTorch
    the parameters then share ``vec``'s memory and take its dtype."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    offset = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[offset:offset + count].view_as(param).data
        offset += count
