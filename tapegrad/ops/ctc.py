"""Connectionist temporal classification loss (``F.ctc_loss``): one ``CtcLossBackward0`` node.

The loss of one sequence is -log of the total probability of every alignment of its target with
the input frames, where an alignment may repeat a label over consecutive frames and put blanks
between labels. It is summed by the forward (alpha) recursion over the extended label sequence
``blank, l1, blank, l2, ..., blank`` in log space: a loop over time, each step vectorized over
the batch and the label positions. The backward rule runs the same recursion from the end (beta)
and returns PyTorch's CPU gradient, exp(log_probs) - (alpha beta / p) / probs per class: the
gradient with respect to the logits *before* a log-softmax, which is what a log-softmax's backward
then passes on unchanged (its rows sum to zero). As in PyTorch, that backward is not itself
differentiable. Sums run in float64; results are cast back.

Checked as PyTorch checks, with its messages; the length and label checks read tensor values and
run inside the primitive, so a compiled function traces lengths given as tensors.
"""
import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .elementwise import clamp_min, where
from .reduction import mean, sum as _sum
from .registry import OTHER, primitive
from .shape import squeeze, unsqueeze
from .signatures import invalid_combination

__all__ = ["ctc_loss"]

_CHECKING = " (while checking arguments for ctc_loss_allocate_outputs)"
_REDUCTIONS = ("none", "mean", "sum")
_OVERLOADS = [f"Tensor log_probs, Tensor targets, {kind} input_lengths, {kind} target_lengths, "
              "int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False"
              for kind in ("tuple of ints", "Tensor")]


# ------------------------------------------------------------------------------ the recursions

class _Lattice:
    """One batch's extended labels (N, L): blank at even positions, the target at odd ones,
    L = 2 * max(target_lengths) + 1, with which positions exist for each sequence and which may
    be reached by skipping the blank before them (a label unlike the previous label; as in
    PyTorch, a label equal to ``blank`` counts as a label there)."""

    def __init__(self, targets, target_lengths, blank):
        n, longest = target_lengths.size, int(target_lengths.max(initial=0))
        labels = np.zeros((n, longest), np.int64)
        for b, row in enumerate(_target_rows(targets, target_lengths)):
            labels[b, :row.size] = row
        self.extended = np.full((n, 2 * longest + 1), blank, np.int64)
        self.extended[:, 1::2] = labels
        positions = np.arange(self.extended.shape[1])
        self.ends = 2 * target_lengths  # the last position of each sequence
        self.exists = positions <= self.ends[:, None]
        self.skippable = np.zeros(self.extended.shape, bool)
        self.skippable[:, 3::2] = labels[:, 1:] != labels[:, :-1]

    def emissions(self, log_probs):
        """log_probs (T, N, C) at each sequence's extended labels: (T, N, L), -inf past its end."""
        picked = np.take_along_axis(log_probs, np.broadcast_to(
            self.extended, (log_probs.shape[0],) + self.extended.shape), axis=2)
        return np.where(self.exists, picked, -np.inf)


def _target_rows(targets, target_lengths):
    """Each sequence's labels: rows of a padded (N, S) tensor, or pieces of a concatenated one."""
    if targets.ndim == 2:
        return [targets[b, :length] for b, length in enumerate(target_lengths)]
    return np.split(targets, np.cumsum(target_lengths)[:-1])


def _logaddexp3(a, b, c):
    """log(e^a + e^b + e^c), -inf when all three are (no warnings, no nan)."""
    top = np.maximum(np.maximum(a, b), c)
    finite = np.where(np.isneginf(top), 0.0, top)
    with np.errstate(divide="ignore"):
        return finite + np.log(np.exp(a - finite) + np.exp(b - finite) + np.exp(c - finite))


def _shifted(values, by):
    """``values`` moved ``by`` positions along the last axis (right if positive), -inf filled."""
    out = np.full_like(values, -np.inf)
    if by > 0:
        out[..., by:] = values[..., :-by]
    else:
        out[..., :by] = values[..., -by:]
    return out


def _alpha(emit, lattice):
    """log alpha (T, N, L): log-probability of the label prefixes ending at each position."""
    alpha = np.full(emit.shape, -np.inf)
    alpha[0, :, :2] = emit[0, :, :2]
    for t in range(1, emit.shape[0]):
        previous = alpha[t - 1]
        skip = np.where(lattice.skippable, _shifted(previous, 2), -np.inf)
        alpha[t] = emit[t] + _logaddexp3(previous, _shifted(previous, 1), skip)
    return alpha


def _beta(emit, lattice, input_lengths):
    """log beta (T, N, L): log-probability of the label suffixes from each position, emission
    at t included; each sequence starts from its last frame and -inf after it."""
    beta = np.full(emit.shape, -np.inf)
    last = np.arange(emit.shape[2]) >= lattice.ends[:, None] - 1
    for t in range(emit.shape[0] - 1, -1, -1):
        if t + 1 < emit.shape[0]:
            following = beta[t + 1]
            skip = np.where(_shifted(lattice.skippable, -2), _shifted(following, -2), -np.inf)
            beta[t] = emit[t] + _logaddexp3(following, _shifted(following, -1), skip)
        starts = input_lengths == t + 1
        beta[t, starts] = np.where(last[starts], emit[t, starts], -np.inf)
    return beta


def _negative_log_likelihood(alpha, lattice, input_lengths):
    """-log p per sequence, from alpha at its last frame and its last one or two positions."""
    rows = np.arange(alpha.shape[1])
    final = alpha[np.maximum(input_lengths - 1, 0), rows]
    last = final[rows, lattice.ends]
    before = np.where(lattice.ends > 0, final[rows, np.maximum(lattice.ends - 1, 0)], -np.inf)
    log_likelihood = np.logaddexp(last, before)
    no_frames = input_lengths == 0
    log_likelihood[no_frames] = np.where(lattice.ends[no_frames] == 0, 0.0, -np.inf)
    return -log_likelihood


# -------------------------------------------------------------------------------- primitives

@primitive("ctc_loss", node="CtcLossBackward0", group=OTHER,
           saves=("log_probs", "targets", "input_lengths", "target_lengths"),
           nondifferentiable=("targets", "input_lengths", "target_lengths"))
def _ctc_loss(log_probs, targets, input_lengths, target_lengths, *, blank, zero_infinity):
    """Per-sequence losses (N,) of log_probs (T, N, C), infinite where no alignment fits
    (``zero_infinity`` is for the backward, as in PyTorch's ``_ctc_loss``)."""
    _check_values(log_probs, targets, input_lengths, target_lengths)
    lattice = _Lattice(targets, target_lengths, blank)
    emit = lattice.emissions(log_probs.astype(np.float64))
    nll = _negative_log_likelihood(_alpha(emit, lattice), lattice, input_lengths)
    return nll.astype(log_probs.dtype)


@_ctc_loss.vjp
def _(ctx, grad, blank, zero_infinity):
    log_probs, targets, input_lengths, target_lengths = ctx.saved
    return (_ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths,
                               blank=blank, zero_infinity=zero_infinity), None, None, None)


@primitive("ctc_loss_backward", node="NotImplemented", group=OTHER,
           nondifferentiable=("targets", "input_lengths", "target_lengths"))
def _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, *, blank,
                       zero_infinity):
    """PyTorch's gradient: exp(lp) - sum over positions s labelled c of
    exp(log alpha + log beta + nll - lp), times the incoming gradient; zero past each sequence's
    frames, and for a sequence of infinite loss when ``zero_infinity``."""
    lattice = _Lattice(targets, target_lengths, blank)
    lp = log_probs.astype(np.float64)
    emit = lattice.emissions(lp)
    alpha = _alpha(emit, lattice)
    nll = _negative_log_likelihood(alpha, lattice, input_lengths)
    both = alpha + _beta(emit, lattice, input_lengths)
    top = np.max(both, axis=2, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    one_hot = lattice.extended[:, :, None] == np.arange(lp.shape[2])
    occupancy = np.einsum("tns,nsc->tnc", np.exp(both - top), one_hot.astype(np.float64))
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        result = np.exp(lp) - occupancy * np.exp(top + nll[None, :, None] - lp)
        result = result * grad.astype(np.float64)[None, :, None]
    result[np.arange(lp.shape[0])[:, None] >= input_lengths[None, :]] = 0.0
    if zero_infinity:
        result[:, np.isinf(nll)] = 0.0
    return result.astype(log_probs.dtype)


@_ctc_loss_backward.vjp
def _(ctx, grad, blank, zero_infinity):
    raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


_ctc_loss_backward.node_class.qualified_name = "torch::autograd::NotImplemented"


# -------------------------------------------------------------------------------- the checks

def _check_values(log_probs, targets, input_lengths, target_lengths):
    """The checks that read lengths, in PyTorch's order: each target length (and, padded, the
    targets' width), the targets' size, then each input length."""
    frames, batch = log_probs.shape[:2]
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                               f"{length}{_CHECKING}")
        if targets.ndim == 2 and targets.shape[1] < length:
            raise RuntimeError(f"Expected tensor to have size at least {length} at dimension 1, "
                               f"but got size {targets.shape[1]} for argument #2 'targets'"
                               f"{_CHECKING}")
    expected, dim = (target_lengths.sum(), 0) if targets.ndim == 1 else (batch, 0)
    if targets.shape[dim] != expected:
        raise RuntimeError(f"Expected tensor to have size {expected} at dimension {dim}, but got "
                           f"size {targets.shape[dim]} for argument #2 'targets'{_CHECKING}")
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value "
                               f"{length}{_CHECKING}")
        if length > frames:
            raise RuntimeError(f"Expected input_lengths to have value at most {frames}, but got "
                               f"value {length}{_CHECKING}")


def _lengths(name, lengths):
    """Lengths given as a tensor or a sequence of ints, as a flat int64 tensor (a tensor's
    through tapegrad operations, so that a compiled function traces it as data)."""
    if isinstance(lengths, Tensor):
        if lengths.dtype.is_floating_point or lengths.dtype == dtypes.bool:
            raise RuntimeError(f"{name} must be integral")
        return lengths.reshape(-1).to(dtypes.int64)
    return Tensor._make(np.array(lengths, np.int64).reshape(-1))


def _check_arguments(args, log_probs, targets, blank):
    """The checks that need shapes only (PyTorch's order)."""
    input_lengths, target_lengths = args[2], args[3]
    both_tensors = isinstance(input_lengths, Tensor) and isinstance(target_lengths, Tensor)
    if not both_tensors and not all(
            isinstance(lengths, (tuple, list)) and all(type(v) is int for v in lengths)
            for lengths in (input_lengths, target_lengths)):
        raise invalid_combination("ctc_loss", args, {}, _OVERLOADS)
    if log_probs._array.dtype.kind != "f" or log_probs._array.dtype == np.float16:
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for "
                                  f"'{dtypes.SCALAR_TYPE_NAMES[str(log_probs._array.dtype)]}'")
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional "
                           f"tensor for argument #1 'log_probs'{_CHECKING}")
    if targets.dim() not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional "
                           f"tensor for argument #2 'targets'{_CHECKING}")
    if not 0 <= blank < log_probs.shape[2]:
        raise RuntimeError("blank must be in label range")


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """The CTC loss of log_probs (T, N, C), or (T, C) for one sequence, against targets padded
    (N, S) or concatenated (sum of target_lengths,)."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    args = (log_probs, targets, input_lengths, target_lengths, blank, _REDUCTIONS.index(reduction),
            zero_infinity)
    batched = log_probs.dim() == 3
    if not batched:
        log_probs = unsqueeze(log_probs, 1)
    _check_arguments(args, log_probs, targets, blank)
    input_lengths = _lengths("input_lengths", input_lengths)
    target_lengths = _lengths("target_lengths", target_lengths)
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if lengths.numel() != log_probs.shape[1]:
            raise RuntimeError(f"{name} must be of size batch_size")
    targets = targets.to(dtypes.int64)
    losses = _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=blank,
                       zero_infinity=zero_infinity)
    if zero_infinity:  # through a where node, as PyTorch
        zero = Tensor._make(np.zeros((), losses._array.dtype))
        losses = where(losses == float("inf"), zero, losses)
    if reduction == "mean":
        return mean(losses / clamp_min(target_lengths.to(losses.dtype), 1))
    if reduction == "sum":
        return _sum(losses)
    return losses if batched else squeeze(losses, 0)

