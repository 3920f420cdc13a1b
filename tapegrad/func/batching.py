"""``vmap``: a function of one example mapped over a batch dimension.

tapegrad has no batching rules, so ``vmap`` loops in Python: it calls ``func`` once per index
of the mapped dimension, on views of the inputs (``select``, so autograd flows back into the
batched inputs), and stacks the results along ``out_dims``. The results are PyTorch's; the
speed is that of the loop, not of one vectorized call. Python that PyTorch's vmap cannot trace
(``.item()``, ``if`` on a tensor's value) therefore works here instead of raising. An
``autograd.Function`` with its own ``vmap`` rule has that rule called once per example, on a
batch of one (``info.batch_size == 1``), where PyTorch calls it once on the whole batch.
Over a dimension of size 0, ``func`` runs once (as PyTorch's does) on zero-filled examples, to
learn the shapes of the empty outputs.

While ``func`` runs, the memory the batched inputs live in is known, so that in-place updates
PyTorch cannot batch are refused as there: a batch norm updating running statistics that are
not batched (the module's own buffers, shared by all examples).
"""
import contextlib
import functools

from .. import ops
from ..autograd.function import functorch_transform
from ..tensor import Tensor
from ..utils import _pytree
from . import _randomness
from ._arguments import name_of

__all__ = ["vmap", "check_batch_norm_statistics"]

# Per running vmap, innermost last: the ids of the tensors its batched inputs are views of.
_batched_memory = []
_BATCH_NORM_UNBATCHED_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which will "
    "be updated in place, were not batched.\nIf you are using a module and do not need eval mode, "
    "please set `track_running_stats` to be False.If you are using a prebuilt module and do not "
    "need eval mode, please see the functorch website for resources on how to patch your module "
    "to work with vmap")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``func`` mapped over dimension ``in_dims`` of its inputs (an int for all, or a pytree
    of ints and ``None`` matching the positional arguments; keyword arguments are not mapped),
    its outputs stacked at ``out_dims``. ``chunk_size`` is accepted for PyTorch's signature:
    examples run one at a time whatever it is."""
    _randomness.check(randomness)
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _batched_inputs(func, in_dims, args)

        def example(index):
            flat = [arg if dim is None else _example(arg, dim, index)
                    for arg, dim in zip(flat_args, flat_in_dims)]
            return lambda: func(*_pytree.unflatten(flat, args_spec), **kwargs)

        batched = [arg for arg, dim in zip(flat_args, flat_in_dims) if dim is not None]
        with functorch_transform("vmap", randomness), _batching(batched):
            results = _randomness.each_example(randomness,
                                               map(example, range(max(batch_size, 1))))
        return _stacked(results, out_dims, func, batch_size)

    return wrapper


def _example(arg, dim, index):
    """The example at ``index`` of ``arg`` along ``dim``: a view, so that autograd and in-place
    updates reach the batched input; zeros shaped like one example when the batch is empty."""
    if arg.size(dim) == 0:
        return arg.new_zeros(arg.shape[:dim] + arg.shape[dim + 1:])
    return arg.select(dim, index)


def _memory_of(tensor):
    return tensor if tensor._base is None else tensor._base


@contextlib.contextmanager
def _batching(batched_inputs):
    """While one vmap runs its function: the memory of its batched inputs is known."""
    _batched_memory.append({id(_memory_of(t)) for t in batched_inputs})
    try:
        yield
    finally:
        _batched_memory.pop()


def check_batch_norm_statistics(running_mean, running_var):
    """PyTorch's refusal to update running statistics in place from a batch norm inside vmap
    when they are not batched (every example would write the same buffer). The input is taken
    to be batched: running statistics count as batched when they are views of the innermost
    vmap's batched inputs (the ensembling idiom's stacked buffers)."""
    if not _batched_memory:
        return
    for stats in (running_mean, running_var):
        if stats is not None and id(_memory_of(stats)) not in _batched_memory[-1]:
            raise RuntimeError(_BATCH_NORM_UNBATCHED_STATS)


def _check_out_dims(out_dims, func):
    for dim in _pytree.flatten(out_dims)[0]:
        if dim is not None and not isinstance(dim, int):
            raise ValueError(f"vmap({name_of(func)}, ..., out_dims={out_dims}): `out_dims` must "
                             "be an int, None or a python collection of ints representing where "
                             "in the outputs the vmapped dimension should appear.")


def _batched_inputs(func, in_dims, args):
    """``(batch size, in_dim per flat argument, flat arguments, their structure)``, checked
    as PyTorch checks them."""
    where = f"vmap({name_of(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple "
                         f"matching the structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({name_of(func)})(<inputs>): got no inputs. Maybe you forgot to "
                         "add inputs, or you are trying to vmap over a function with no inputs. "
                         "The latter is unsupported.")
    flat_args, args_spec = _pytree.flatten(args)
    flat_in_dims = _pytree.broadcast_prefix(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. "
                         f"in_dims has structure {_pytree.flatten(in_dims)[1]} but inputs has "
                         f"structure {args_spec}.")
    for i, (arg, dim) in enumerate(zip(flat_args, flat_in_dims)):
        if dim is None:
            continue
        if not isinstance(dim, int):
            raise ValueError(f"{where}: Got in_dim={dim} for an input but in_dim must be either "
                             "an integer dimension or None.")
        if not isinstance(arg, Tensor):
            raise ValueError(f"{where}: Got in_dim={dim} for an input but the input is of type "
                             f"{type(arg)}. We cannot vmap over non-Tensor arguments, please use "
                             "None as the respective in_dim")
        if not -arg.dim() <= dim < arg.dim():
            raise ValueError(f"{where}: Got in_dim={dim} for some input, but that input is a "
                             f"Tensor of dimensionality {arg.dim()} so expected in_dim to satisfy "
                             f"-{arg.dim()} <= in_dim < {arg.dim()}.")
        flat_in_dims[i] = dim % arg.dim()
    sizes = [arg.size(dim) for arg, dim in zip(flat_args, flat_in_dims) if dim is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(size != sizes[0] for size in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0], flat_in_dims, flat_args, args_spec


def _stacked(results, out_dims, func, batch_size):
    """The per-example outputs stacked, each at its out_dim (``None``: returned unstacked);
    empty along it when ``batch_size`` is 0 (``results`` then holds the one placeholder call)."""
    flat_results = [_pytree.flatten(result)[0] for result in results]
    output_spec = _pytree.flatten(results[0])[1]
    if isinstance(results[0], Tensor):
        if out_dims is None or isinstance(out_dims, int):
            flat_out_dims = [out_dims]
        else:
            one = isinstance(out_dims, tuple) and len(out_dims) == 1
            flat_out_dims = list(out_dims) if one else None
    else:
        flat_out_dims = _pytree.broadcast_prefix(out_dims, output_spec)
    if flat_out_dims is None:
        raise ValueError(f"vmap({name_of(func)}, ..., out_dims={out_dims})(<inputs>): out_dims "
                         "is not compatible with the structure of `outputs`. out_dims has "
                         f"structure {_pytree.flatten(out_dims)[1]} but outputs has structure "
                         f"{output_spec}.")
    stacked = [_stack([flat[position] for flat in flat_results], dim, name_of(func), batch_size)
               for position, dim in enumerate(flat_out_dims)]
    return _pytree.unflatten(stacked, output_spec)


def _stack(values, out_dim, name, batch_size):
    """One output's per-example values stacked at ``out_dim``. PyTorch returns an output with
    ``out_dim=None`` unbatched and refuses one that depends on the mapped inputs: here, one
    that differs between examples."""
    first = values[0]
    if out_dim is None:
        if isinstance(first, Tensor) and not all(ops.equal(first, v) for v in values[1:]):
            raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                             "out_dim is None")
        return first
    if not isinstance(first, Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                         f"{type(first)}. Did you mean to set out_dims= to None for output?")
    stacked = ops.stack(values)
    if batch_size == 0:
        stacked = stacked.narrow(0, 0, 0)
    return stacked if out_dim == 0 else stacked.movedim(0, out_dim)
