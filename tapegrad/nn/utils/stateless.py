"""``nn.utils.stateless``: call a module with other tensors in place of its parameters and
buffers (meta-learning's "fast weights"), gradients flowing to the given tensors."""
import contextlib

from ..._warnings import warn_at_caller
from ...tensor import Tensor

__all__ = ["functional_call"]

_MISSING = object()  # a name the module does not have (allowed: it is set, then removed)


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """``module(*args, **kwargs)`` with the named tensors of ``parameters_and_buffers`` standing
    in for the module's own, which are back in place afterwards, also when the call raises."""
    warn_at_caller("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                   "and will be removed in a future version of PyTorch. Please use "
                   "`torch.func.functional_call` instead which is a drop-in replacement.",
                   FutureWarning)
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)


def _functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                     tie_weights=True, strict=False):
    kwargs = {} if kwargs is None else kwargs
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _reparametrize_module(module, parameters_and_buffers, tie_weights=tie_weights,
                               strict=strict):
        return module(*args, **kwargs)


@contextlib.contextmanager
def _reparametrize_module(module, parameters_and_buffers, *, tie_weights=False, strict=False):
    """Swaps the tensors in, then the originals back; the module's in-place changes to the
    swapped-in entries (a running statistic replaced, say) are written back to the dict."""
    tensors = _untied(module, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:  # a tensor given for one name of a tied parameter counts for all its names
        _check_keys(module, tensors)
    originals = {}
    try:
        for name, tensor in tensors.items():
            originals[name] = _swap(module, name, tensor)
        yield
    finally:
        current = {name: _swap(module, name, tensor) for name, tensor in originals.items()}
        parameters_and_buffers.update({name: current[name] for name in parameters_and_buffers
                                       if name in current})


def _named_tensors(module):
    return {**dict(module.named_parameters(remove_duplicate=False)),
            **dict(module.named_buffers(remove_duplicate=False))}


def _untied(module, parameters_and_buffers):
    """A tensor given for one of several names of a shared (tied) parameter replaces all."""
    names_of = {}
    for name, tensor in _named_tensors(module).items():
        names_of.setdefault(id(tensor), set()).add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    given = [name for name in parameters_and_buffers if name in tied]
    for name in given:
        values = {id(parameters_and_buffers[other]) for other in tied[name] if other in given}
        if len(values) > 1:
            raise ValueError(f"functional_call got multiple values for keys "
                             f"{sorted(tied[name])}, which are tied. Consider using "
                             "tie_weights=False")
    untied = dict(parameters_and_buffers)
    for name in given:
        untied.update(dict.fromkeys(tied[name], parameters_and_buffers[name]))
    return untied


def _check_keys(module, parameters_and_buffers):
    expected = set(_named_tensors(module))
    given = set(parameters_and_buffers)
    messages = []
    if given - expected:
        messages.append(f"Unexpected key(s): {', '.join(map(repr, sorted(given - expected)))}.")
    if expected - given:
        messages.append(f"Missing key(s): {', '.join(map(repr, sorted(expected - given)))}.")
    if messages:
        raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}:\n\t"
                           + "\n\t".join(messages))


def _swap(module, path, tensor):
    """Puts ``tensor`` at the dotted ``path`` (as a parameter or buffer entry when that is what
    the name is; ``_MISSING`` removes it) and returns what was there."""
    prefix, _, name = path.rpartition(".")
    owner = module.get_submodule(prefix)
    if tensor is not _MISSING and not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    if name in owner._parameters:
        original = owner._parameters[name]
    elif name in owner._buffers:
        original = owner._buffers[name]
    elif hasattr(owner, name):
        original = getattr(owner, name)
    else:
        original = _MISSING
    if original is not _MISSING and original is not None and not isinstance(original, Tensor):
        raise TypeError(f"attribute `{name}`: {original} is not an instance of torch.Tensor")
    if tensor is _MISSING:
        if hasattr(owner, name):
            delattr(owner, name)
    elif name in owner._parameters:
        owner._parameters[name] = tensor
    elif name in owner._buffers:
        owner._buffers[name] = tensor
    else:
        setattr(owner, name, tensor)
    return original
