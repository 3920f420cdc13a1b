"""``nn.utils.rnn``: batching sequences of different lengths — padded, or packed.

A ``PackedSequence`` keeps only the valid steps of a batch of sequences sorted by decreasing
length: time step by time step, the rows of the sequences still running (``batch_sizes[t]`` of
them). The recurrent layers step through it directly, so padding is never computed on.
"""
import numbers
from collections import namedtuple

import numpy as np

from ... import dtypes, ops
from ...ops.packing import _pack, _unpack, _valid_steps
from ...tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                                    "unsorted_indices"])):
    """``data`` (sum of lengths, *) and ``batch_sizes`` (an int64 tensor, one per time step);
    ``sorted_indices`` orders the original batch by decreasing length (None when it already
    was) and ``unsorted_indices`` undoes it. Made by ``pack_padded_sequence`` /
    ``pack_sequence``, not by hand."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PyTorch's legacy form: PackedSequence((data, batch_sizes))
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """Convert ``data`` (the indices follow it); ``self`` when nothing changes."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs):
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=dtypes.float64)

    def float(self):
        return self.to(dtype=dtypes.float32)

    def half(self):
        return self.to(dtype=dtypes.float16)

    def long(self):
        return self.to(dtype=dtypes.int64)

    def int(self):
        return self.to(dtype=dtypes.int32)

    def short(self):
        return self.to(dtype=dtypes.int16)

    def char(self):
        return self.to(dtype=dtypes.int8)

    def byte(self):
        return self.to(dtype=dtypes.uint8)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    inverse = np.empty_like(permutation.numpy())
    inverse[permutation.numpy()] = np.arange(permutation.numel())
    return ops.tensor(inverse, dtype=permutation.dtype)


def _lengths_tensor(lengths):
    """``lengths`` as an int64 tensor, as PyTorch converts them before any check."""
    if isinstance(lengths, Tensor):
        return lengths.to(dtypes.int64)
    return ops.as_tensor(lengths, dtype=dtypes.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded (T, B, *) batch — (B, T, *) with ``batch_first`` — of sequences of the
    given ``lengths``. With ``enforce_sorted`` they must come longest first; otherwise they are
    sorted here and ``sorted_indices`` records how."""
    lengths = _lengths_tensor(lengths)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = ops.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if batch_first:
        input = input.transpose(0, 1)
    lengths = _checked_lengths(input, lengths)
    batch_sizes = tuple(int(n) for n in (lengths[:, None] > np.arange(lengths[0])).sum(0))
    data = _pack(input, batch_sizes=batch_sizes)
    return PackedSequence(data, ops.tensor(batch_sizes, dtype=dtypes.int64), sorted_indices,
                          None)


def _checked_lengths(input, lengths):
    """The lengths of the sequences of the (T, B, *) ``input`` as an array, after PyTorch's
    checks in its order: one length per sequence (of an input that has a batch dimension), all
    positive, longest first; and (tapegrad's own check, where PyTorch reads past the end) none
    longer than T."""
    if lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D cpu Long tensor")
    batch_size = input.size(1)
    values = lengths.numpy()
    if values.size != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{values.size} (batch_size={batch_size})")
    if values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0")
    if np.any(values[1:] > values[:-1]):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
            "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
            "pack_sequence to sidestep this requirement if you do not need ONNX "
            "exportability.")
    if values[0] > input.shape[0]:
        raise RuntimeError(f"Expected the longest sequence length ({values[0]}) to be at most "
                           f"the padded length ({input.shape[0]})")
    return values


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: the padded batch (in the original order) and the length
    of each sequence (an int64 tensor). ``total_length`` pads to that many steps."""
    batch_sizes = tuple(int(n) for n in sequence.batch_sizes.numpy())
    max_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{max_length}")
        if not isinstance(total_length, numbers.Integral):  # refused by ATen's argument parser
            raise TypeError("_pad_packed_sequence(): argument 'total_length' (position 5) must "
                            f"be int, not {type(total_length).__name__}")
        max_length = total_length
    padded = _unpack(sequence.data, batch_sizes=batch_sizes, total_length=max_length,
                     padding_value=padding_value)
    lengths = _valid_steps(batch_sizes).sum(0)
    if batch_first:
        padded = padded.transpose(0, 1)
    lengths = ops.tensor(lengths, dtype=dtypes.int64)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        padded = padded.index_select(0 if batch_first else 1, unsorted_indices)
        lengths = lengths[unsorted_indices]
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shape (L_i, *) into (max L, B, *) — (B, max L, *) with ``batch_first``
    — filling the missing steps with ``padding_value``, after each sequence (``"right"``) or
    before it (``"left"``). Each sequence is copied in with ``copy_`` — broadcast to the first
    one's trailing shape, with PyTorch's errors when it does not fit — so gradients flow back
    to it (``CopySlices``, as in PyTorch)."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(sequence.shape[0] for sequence in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), longest) if batch_first else (longest, len(sequences))
    out = ops.full(shape + trailing, padding_value, dtype=sequences[0].dtype)
    for i, sequence in enumerate(sequences):
        length = sequence.shape[0]
        steps = slice(0, length) if padding_side == "right" else slice(longest - length, longest)
        out[(i, steps) if batch_first else (steps, i)].copy_(sequence)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences a padded batch holds, each cut to its length by a boolean mask
    (IndexBackward0). As PyTorch does, a sequence-first batch is transposed *in place*: the
    caller's tensor is batch-first afterwards."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    steps = ops.arange(padded_sequences.shape[1], device=lengths.device)
    return [sequence[steps < length] for sequence, length in zip(padded_sequences, lengths,
                                                                  strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of (L_i, *) tensors (longest first, unless ``enforce_sorted`` is False)."""
    lengths = [sequence.shape[0] for sequence in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a ``PackedSequence`` holds, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
