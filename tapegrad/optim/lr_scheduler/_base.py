"""``LRScheduler``: each ``step()`` advances an epoch counter and rewrites the groups' lr.

Schedules use PyTorch's recursive ("chainable") forms, computed from the groups' current lrs, so
the lr sequences equal PyTorch's to the last bit, including when several schedulers act on one
optimizer. ``_get_closed_form_lr`` (where a schedule has one) serves ``step(epoch)``.
"""
import contextlib
import functools
import warnings
import weakref

from ..._warnings import warn_at_caller
from ...tensor import Tensor
from ..optimizer import Optimizer

__all__ = ["LRScheduler", "check_optimizer", "per_group", "set_group_value", "group_values",
           "EPOCH_DEPRECATION_WARNING", "warn_get_lr_outside_step", "within_step"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")


def check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
    return optimizer


def set_group_value(group, key, value):
    """``group[key] = value``, except that a tensor learning rate (or momentum) is filled in
    place, as PyTorch does: whoever holds the tensor — a compiled step, the scheduler's
    ``get_last_lr()`` — sees the new value."""
    current = group[key]
    if isinstance(current, Tensor):
        current.fill_(value.item() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


def group_values(optimizer, key):
    """``group[key]`` of every group, tensors cloned (the list must not alias the groups)."""
    return [group[key].clone() if isinstance(group[key], Tensor) else group[key]
            for group in optimizer.param_groups]


def per_group(name, optimizer, value):
    """``value`` as one entry per parameter group (a list must already have one per group)."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {groups}.")
        return list(value)
    return [value] * groups


def warn_get_lr_outside_step(scheduler):
    """A schedule's ``get_lr`` computes the next lrs: called by a user, it is likely mistaken
    for ``get_last_lr``, as PyTorch warns."""
    if not scheduler._get_lr_called_within_step:
        warn_at_caller("To get the last learning rate computed by the scheduler, please use "
                       "`get_last_lr()`.")


@contextlib.contextmanager
def within_step(scheduler):
    """While a ``step`` computes the lrs: its ``get_lr`` calls do not warn."""
    scheduler._get_lr_called_within_step = True
    try:
        yield
    finally:
        scheduler._get_lr_called_within_step = False


def _track_step_called(optimizer):
    """Wrap the optimizer's ``step`` (once) so that it records having been called — how PyTorch
    tells a scheduler stepped before its optimizer."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step = optimizer.step.__func__
    optimizer_ref = weakref.ref(optimizer)

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        instance = optimizer_ref()
        instance._opt_called = True
        return step.__get__(instance, type(instance))(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    # True only during the step the constructor takes, which keeps the groups' lrs as they are.
    _is_initial = False
    # True while ``step`` computes the lrs: ``get_lr`` called at any other time warns.
    _get_lr_called_within_step = False

    def __init__(self, optimizer, last_epoch=-1):
        self.optimizer = check_optimizer(optimizer)
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for index, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{index}] when "
                        "resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not "
                        "recommended)")
        self.base_lrs = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _track_step_called(optimizer)
        self._initial_step()

    def _initial_step(self):
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        """The lrs for ``self.last_epoch``, computed from the groups' current lrs."""
        raise NotImplementedError

    def get_last_lr(self):
        return self._last_lr

    def step(self, epoch=None):
        if self._step_count == 1:
            self._warn_if_optimizer_not_stepped()
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _warn_if_optimizer_not_stepped(self):
        """The first ``step`` after the constructor's: PyTorch's warnings about the call order."""
        if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
            warn_at_caller(
                "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                "initialization. Please, make sure to call `optimizer.step()` before "
                "`lr_scheduler.step()`. See more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
        elif not getattr(self.optimizer, "_opt_called", False):
            warn_at_caller(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                "1.1.0 and later, you should call them in the opposite order: `optimizer.step()` "
                "before `lr_scheduler.step()`.  Failure to do this will result in PyTorch "
                "skipping the first value of the learning rate schedule. See more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")

    def _update_lr(self, epoch=None):
        with within_step(self):
            if epoch is None:
                self.last_epoch += 1
                lrs = self.get_lr()
            else:
                self.last_epoch = epoch
                lrs = (self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr")
                       else self.get_lr())
        # strict, as PyTorch: a group added after the scheduler was made has no lr to take
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            set_group_value(group, "lr", lr)
        self._last_lr = self._current_lrs()

    def _current_lrs(self):
        return group_values(self.optimizer, "lr")

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
