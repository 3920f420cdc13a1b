"""Modules as functions of their parameters: ``functional_call`` and ``stack_module_state``
(the ensembling idiom: one model's forward, vmapped over the stacked states of many), and
``replace_all_batch_norm_modules_`` for batch norm under vmap."""
from collections.abc import Sequence

from .. import ops
from ..autograd import grad_mode
from ..nn.modules.normalization import _BatchNorm, _InstanceNorm
from ..nn.utils.stateless import _functional_call

__all__ = ["functional_call", "stack_module_state", "replace_all_batch_norm_modules_"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights=True, strict=False):
    """``module(*args, **kwargs)`` with the given tensors in place of its parameters and
    buffers: one dict, or a sequence of dicts with no key in two of them."""
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        keys = [key for d in parameter_and_buffer_dicts for key in d]
        repeated = list(dict.fromkeys(key for key in keys if keys.count(key) > 1))
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        tensors = {key: value for d in parameter_and_buffer_dicts for key, value in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                         f"dicts, but got {type(parameter_and_buffer_dicts)}")
    return _functional_call(module, tensors, args, kwargs, tie_weights=tie_weights,
                            strict=strict)


def stack_module_state(models):
    """``(params, buffers)``: each name's tensors of all models stacked along a new first
    dimension. Stacked parameters are new leaves (requiring grad when the models' do), ready
    for an optimizer and for ``vmap(..., in_dims=(0, 0, None))``."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({model.training for model in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if any(type(model) is not type(models[0]) for model in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    params = [dict(model.named_parameters()) for model in models]
    buffers = [dict(model.named_buffers()) for model in models]
    return ({name: _stacked_leaf([p[name] for p in params], name) for name in params[0]},
            {name: _stacked_leaf([b[name] for b in buffers], name) for name in buffers[0]})


def _stacked_leaf(tensors, name):
    requires_grad = {t.requires_grad for t in tensors}
    if len(requires_grad) > 1:
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    with grad_mode.no_grad():
        stacked = ops.stack(tensors)
    return stacked.requires_grad_(requires_grad.pop())


def replace_all_batch_norm_modules_(root):
    """``root`` with every batch norm module made to use batch statistics only (no running
    statistics, which vmapped examples would all update in place); changed in place."""
    for module in root.modules():
        is_batch_norm = isinstance(module, _BatchNorm) and not isinstance(module, _InstanceNorm)
        if is_batch_norm and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
