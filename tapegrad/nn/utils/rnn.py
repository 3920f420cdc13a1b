"""``nn.utils.rnn``: batching sequences of different lengths."""
from ... import ops

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shape (L_i, *) into (max L, B, *) — (B, max L, *) with ``batch_first``
    — filling the missing steps with ``padding_value``, after each sequence (``"right"``) or
    before it (``"left"``). Each sequence is copied in by index assignment, so gradients flow
    back to it (``CopySlices``, as in PyTorch)."""
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
        out[(i, steps) if batch_first else (steps, i)] = sequence
    return out
