"""Padding, as ATen does it: ``pad`` checks what every mode shares, then calls the mode's kernel.

``pad`` is PyTorch's flat list ``(last_before, last_after, second_last_before, ...)``; a negative
amount crops. The kernels and what they record:

* constant: ``constant_pad_nd``, its own gradient with the amounts negated (a crop where the
  forward padded), so every derivative order records ``ConstantPadNdBackward0``;
* reflect / replicate: one primitive per padded rank (``ReflectionPad2DBackward0`` ...), each
  output position a copy of one input position; the gradient adds every output position back onto
  the position it copied (``ReflectionPad2DBackwardBackward0``), whose own gradient is the pad;
* circular: no primitive, as in PyTorch: ``_pad_circular`` fills a new tensor with slice copies,
  recorded as the same chain of ``CopySlices`` and ``SliceBackward0`` nodes.

The constant, reflect and replicate kernels lay a channels-last input's result out channels-last,
as ATen's do (and the reflect / replicate gradients too, in the input's layout).
"""
import numpy as np

from ..memory_format import laid_out_as
from ..tensor import Tensor
from .operands import broadcast_error
from .registry import OTHER, primitive
from .shape import _copy_slices, _slice

__all__ = ["pad", "constant_pad_nd"]


def _padded_axes(ndim, padding):
    """``(axis, before, after)`` for each padded dimension, the last dimension first."""
    return [(ndim - 1 - i, padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]


# ----------------------------------------------------------------------------- constant

@primitive("constant_pad_nd", node="ConstantPadNdBackward0", group=OTHER, complex_rule=True)
def _constant_pad_nd(a, pad, value):
    pairs = [(0, 0)] * a.ndim
    for axis, before, after in _padded_axes(a.ndim, pad):
        pairs[axis] = (before, after)
    crop = tuple(slice(-before if before < 0 else 0, after if after < 0 else None)
                 for before, after in pairs)
    grow = [(max(before, 0), max(after, 0)) for before, after in pairs]
    return laid_out_as(np.pad(a[crop], grow, constant_values=value), a)


@_constant_pad_nd.vjp
def _(ctx, grad, pad, value):
    return _constant_pad_nd(grad, pad=tuple(-p for p in pad), value=0)


def constant_pad_nd(input, pad, value=0):
    """Pad the last ``len(pad) // 2`` dimensions of ``input`` with ``value``.

    PyTorch crops (``narrow``) before it pads, so a crop larger than the dimension fails there.
    """
    for axis, before, after in _padded_axes(input.dim(), pad):
        if input.shape[axis] + min(before, 0) + min(after, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    return _constant_pad_nd(input, pad=pad, value=value)


# ---------------------------------------------------------------------- reflect, replicate

def _source_positions(size, before, after, mode):
    """The input position each output position copies, along one dimension of ``size``."""
    positions = np.arange(-before, size + after)
    if mode == "reflect":
        positions = np.abs(positions)  # before the start: mirrored about position 0
        return np.where(positions < size, positions, 2 * (size - 1) - positions)
    return positions.clip(0, size - 1)


def _gather(a, padding, mode):
    for axis, before, after in _padded_axes(a.ndim, padding):
        a = np.take(a, _source_positions(a.shape[axis], before, after, mode), axis=axis)
    return a


def _scatter_add(grad, shape, padding, mode):
    """The adjoint of ``_gather``: each output position's gradient added onto its source."""
    for axis, before, after in _padded_axes(grad.ndim, padding):
        positions = _source_positions(shape[axis], before, after, mode)
        out = np.zeros(grad.shape[:axis] + (shape[axis],) + grad.shape[axis + 1:], grad.dtype)
        np.add.at(out, (slice(None),) * axis + (positions,), grad)
        grad = out
    return grad


_KINDS = {"reflect": "reflection", "replicate": "replication"}  # mode -> ATen's kernel name


def _copying_pad(mode, dims):
    """The primitive ``reflection_pad2d`` (...) and its backward, named as PyTorch's nodes are."""
    kind = _KINDS[mode]
    name, node = f"{kind}_pad{dims}d", f"{kind.capitalize()}Pad{dims}DBackward"

    @primitive(name, node=node + "0", group=OTHER, saves=("a",))
    def forward(a, padding):
        return laid_out_as(_gather(a, padding, mode), a)

    @primitive(name + "_backward", node=node + "Backward0", group=OTHER)
    def backward(grad, a, padding):
        """Takes the input itself, not only its shape, so the node has PyTorch's two edges."""
        return laid_out_as(_scatter_add(grad, a.shape, padding, mode), a)

    @forward.vjp
    def _(ctx, grad, padding):
        (a,) = ctx.saved
        return backward(grad, a, padding=padding)

    @backward.vjp
    def _(ctx, grad, padding):
        need_a = ctx.needs_input_grad[1]
        zeros = Tensor._make(np.zeros(ctx.input_shapes[1], ctx.input_dtypes[1])) if need_a else None
        return forward(grad, padding=padding), zeros

    return forward


_COPYING_PADS = {(mode, dims): _copying_pad(mode, dims) for mode in _KINDS for dims in (1, 2, 3)}


def _copying_pad_nd(input, padding, mode):
    """``reflection_pad{1,2,3}d`` / ``replication_pad{1,2,3}d`` with ATen's checks, in its order."""
    kind, dims, shape = _KINDS[mode], len(padding) // 2, tuple(input.shape)
    if 0 in (shape[1:] if len(shape) == dims + 2 else shape):  # a batch may be empty, no more
        raise RuntimeError(f"Expected {dims + 1}D or {dims + 2}D (batch mode) tensor with possibly "
                           f"0 batch size and other non-zero dimensions for input, but got: "
                           f"{list(shape)}")
    axes = _padded_axes(len(shape), padding)
    if kind == "reflection":
        for i, (axis, before, after) in enumerate(axes):
            if before >= shape[axis] or after >= shape[axis]:
                raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                                   f"corresponding input dimension, but got: padding ({before}, "
                                   f"{after}) at dimension {axis} of input {list(shape)}")
    out_shape = list(shape)
    for axis, before, after in axes:
        out_shape[axis] += before + after
    if all(out_shape[axis] < 1 for axis, _, _ in axes):
        raise RuntimeError(_too_small_message(kind, shape[-dims:], out_shape[-dims:]))
    if min(out_shape) < 0:
        raise RuntimeError(_negative_size_message(kind, dims, out_shape))
    if input._array.dtype == np.bool_:
        raise NotImplementedError(f"\"{kind}_pad{dims}d\" not implemented for 'Bool'")
    return _COPYING_PADS[mode, dims](input, padding=padding)


def _too_small_message(kind, sizes, out_sizes):
    """ATen's words, e.g. ``input (D: 3 H: 4, W: 5) is too small. Calculated output D: ...``."""
    labels = "DHW"[3 - len(sizes):]
    given = [f"{label}: {size}" for label, size in zip(labels, sizes)]
    given = ", ".join(filter(None, (" ".join(given[:-1]), given[-1])))
    if kind == "replication" and len(sizes) == 2:
        given += " "  # ATen's replication_pad2d message has a space there
    calculated = " ".join(f"{label}: {size}" for label, size in zip(labels, out_sizes))
    return f"input ({given}) is too small. Calculated output {calculated}"


def _negative_size_message(kind, dims, out_shape):
    """What ATen says when one padded dimension would be negative while another is not: the
    2-d reflection kernel resizes its output unchecked, the others allocate it."""
    if (kind, dims) == ("reflection", 2):
        return "numel: integer multiplication overflow"
    negative = next(size for size in out_shape if size < 0)
    return f"Trying to create tensor with negative dimension {negative}: {out_shape}"


# ----------------------------------------------------------------------------- circular

def _circular_pad(input, padding):
    """ATen's ``_pad_circular``: copy the input into the middle of a new tensor, then, dimension
    by dimension, copy the far end of the result before it and its near end after it.

    The slices follow ATen's bounds exactly, so a crop past the other end fails as there.
    """
    shape = tuple(input.shape)
    out_shape = list(shape)
    for axis, before, after in reversed(_padded_axes(len(shape), padding)):
        out_shape[axis] += before + after
        if before > shape[axis] or after > shape[axis]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[axis] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    axes = _padded_axes(len(shape), padding)
    source, target = input, []
    for axis, before, after in axes:
        source = _slice(source, key=_slice_key(axis, max(-before, 0), shape[axis] - max(-after, 0)))
        target.append(_slice_step(axis, max(before, 0), out_shape[axis] - max(after, 0)))
    zeros = Tensor._make(np.zeros(out_shape, input._array.dtype))  # ATen: new_empty
    out = _copy_into(zeros, target, source)
    for axis, before, after in axes:
        size, after_end = out_shape[axis], max(after, 0)
        if before > 0:
            out = _wrap(out, axis, (0, before), (size - before - after_end, size - after_end))
        if after > 0:
            start = max(before, 0)
            out = _wrap(out, axis, (size - after, size), (start, start + after))
    return out


def _wrap(out, axis, target, source):
    """``out`` with ``out[target]`` (bounds along ``axis``) replaced by a copy of ``out[source]``.

    The ranges overlap only when one side pads more than the other side's crop leaves. ATen's
    ``copy_`` then refuses if both slices are dense; otherwise it copies element by element,
    reading what it has just written when the source lies behind (``_copy_in_sequence``),
    while autograd records the copy of the slice as it was.
    """
    size = out.shape[axis]
    written, read = (range(*slice(*bounds).indices(size)) for bounds in (target, source))
    overlap = max(written.start, read.start) < min(written.stop, read.stop)
    if overlap and written != read and _dense_slices(out.shape, axis):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the "
                           "written-to tensor refer to a single memory location. Please clone() "
                           "the tensor before performing the operation.")
    result = _copy_into(out, [_slice_step(axis, *target)],
                        _slice(out, key=_slice_key(axis, *source)))
    if overlap and read.start < written.start:
        _copy_in_sequence(result._array, axis, written, written.start - read.start)
    return result


def _dense_slices(shape, axis):
    """Whether slices along ``axis`` of a contiguous tensor of ``shape`` are dense (ATen checks
    only such slices for overlap): not empty, and no dim before ``axis`` longer than 1."""
    return 0 not in shape and all(n == 1 for n in shape[:axis])


def _copy_in_sequence(array, axis, written, distance):
    """``array[written] = array[written - distance]`` element by element in order, as ATen's
    loop copies: each block of ``distance`` positions reads the block written before it."""
    for start in range(written.start, written.stop, distance):
        stop = min(start + distance, written.stop)
        index = (slice(None),) * axis
        array[index + (slice(start, stop),)] = array[index + (slice(start - distance,
                                                                     stop - distance),)]


def _slice_key(axis, start, stop):
    return (slice(None),) * axis + (slice(start, stop),)


def _slice_step(axis, start, stop):
    return ("slice", _slice_key(axis, start, stop), axis)


def _copy_into(base, steps, source):
    """``base`` with its region ``steps`` replaced by ``source``: ``base[region].copy_(source)``
    recorded as PyTorch records it (CopySlices), refused with ``copy_``'s messages."""
    region = np.broadcast_to(np.empty((), base._array.dtype), base.shape)  # shapes, no data
    for _, key, _ in steps:
        region = region[key]
    try:
        shape = np.broadcast_shapes(region.shape, source.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((Tensor._make(region), source), {})) from None
    if shape != region.shape:
        raise RuntimeError(f"output with shape {list(region.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    return _copy_slices(base, source, key=(steps, None))


# ---------------------------------------------------------------------------------- pad

_PADS = {"constant", "reflect", "replicate", "circular"}
_SUPPORTED = ("Supported combinations for non-constant padding:\n"
              "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
              "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
              "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input, pad, mode="constant", value=None):
    """ATen's ``pad``: the checks every mode shares, then the mode's kernel for the input's rank
    (``pad`` a tuple of ints)."""
    if mode not in _PADS:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    ndim = input.dim()
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{ndim}")
    if mode == "constant":
        return constant_pad_nd(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    dims = len(pad) // 2
    if dims not in (1, 2, 3) or ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {ndim}D input "
                                  f"tensor.\n{_SUPPORTED}")
    if mode == "circular":
        return _circular_pad(input, pad)
    return _copying_pad_nd(input, pad, mode)
