"""The primitives of packed sequences (``nn.utils.rnn``): packing a padded, time-major batch
keeps each time step's rows of the sequences still running; unpacking pads them back. Each is the
other's backward rule."""
import numpy as np

from .registry import OTHER, primitive


def _valid_steps(batch_sizes):
    """(T, B) mask of the steps a packed sequence holds, in its (time-major) order."""
    batch_sizes = np.asarray(batch_sizes)
    return np.arange(batch_sizes[0]) < batch_sizes[:, None]


@primitive("pack_padded_sequence", node="PackPaddedSequenceBackward0", group=OTHER)
def _pack(padded, *, batch_sizes):
    """(T, B, *) sorted by decreasing length -> the valid steps, time step by time step."""
    return padded[:len(batch_sizes)][_valid_steps(batch_sizes)]


@_pack.vjp
def _(ctx, grad, batch_sizes):
    return _unpack(grad, batch_sizes=batch_sizes, total_length=ctx.input_shapes[0][0],
                   padding_value=0)


@primitive("pad_packed_sequence", node="CopySlices", group=OTHER)
def _unpack(data, *, batch_sizes, total_length, padding_value):
    """Packed ``data`` -> (total_length, B, *), ``padding_value`` past each sequence's end.
    Its node is PyTorch's for this result: ``CopySlices``, of the copies into a new tensor."""
    padded = np.full((total_length, batch_sizes[0], *data.shape[1:]), padding_value,
                     dtype=data.dtype)
    padded[:len(batch_sizes)][_valid_steps(batch_sizes)] = data
    return padded


@_unpack.vjp
def _(ctx, grad, batch_sizes, total_length, padding_value):
    return _pack(grad, batch_sizes=batch_sizes)
