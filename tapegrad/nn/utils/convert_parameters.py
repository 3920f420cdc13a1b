"""Parameters as one flat vector and back (for optimisers and tools that want a single vector)."""
from ... import ops
from ...autograd import grad_mode
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated, in order (recorded: it carries gradients)."""
    return ops.cat([param.reshape(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Copy consecutive slices of ``vec`` into the parameters, in order, off the tape."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    with grad_mode.no_grad():
        for param in parameters:
            count = param.numel()
            param.copy_(vec[offset:offset + count].reshape(param.shape))
            offset += count
