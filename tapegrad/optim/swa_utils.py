"""Weight averaging, as ``torch.optim.swa_utils``: ``AveragedModel`` keeps a running average
(equal weights, SWA; or exponential, EMA) of a model's parameters, ``SWALR`` anneals the lr to
a constant for the averaging phase, and ``update_bn`` recomputes batch-norm statistics for the
averaged weights."""
import itertools
import math
from copy import deepcopy

from .. import _foreach, dtypes, ops
from ..autograd import grad_mode
from ..nn.modules.module import Module
from ..nn.modules.normalization import _BatchNorm
from ..tensor import Tensor
from .lr_scheduler._base import LRScheduler, per_group, warn_get_lr_outside_step

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
                         "range.")


def get_ema_multi_avg_fn(decay=0.999):
    """Updates a list of averages in place: ``ema += (1 - decay) (current - ema)`` (one lerp
    for float lists, a rounded copy of the blend for integer ones)."""
    _check_decay(decay)

    @grad_mode.no_grad()
    def ema_update(ema_param_list, current_param_list, _):
        if _lerps(ema_param_list):
            _foreach._foreach_lerp_(ema_param_list, current_param_list, 1 - decay)
            return
        for ema, current in zip(ema_param_list, current_param_list):
            ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """Updates a list of averages in place to the equal-weight mean of ``n + 1`` values. As in
    PyTorch, integer lists (a batch norm's ``num_batches_tracked``) cannot be averaged this way
    and raise; the default averaging of ``AveragedModel`` on the CPU does not use this."""

    @grad_mode.no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        if _lerps(averaged_param_list):
            _foreach._foreach_lerp_(averaged_param_list, current_param_list,
                                    float(1 / (num_averaged + 1)))
            return
        diffs = _foreach._foreach_sub(current_param_list, averaged_param_list)
        if isinstance(num_averaged, Tensor):
            _foreach._foreach_addcdiv_(averaged_param_list, diffs,
                                       [num_averaged + 1] * len(averaged_param_list))
        else:
            _foreach._foreach_add_(averaged_param_list, diffs, alpha=1.0 / (num_averaged + 1))

    return swa_update


def _lerps(tensors):
    """Whether a list of one dtype can be averaged by ``lerp_`` (float and complex only)."""
    return tensors[0].is_floating_point() or tensors[0].is_complex()


def get_ema_avg_fn(decay=0.999):
    """The new exponential average of one parameter, returned (not written)."""
    _check_decay(decay)

    @grad_mode.no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The new equal-weight average of one parameter, returned (not written)."""

    @grad_mode.no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A deep copy of ``model`` whose parameters (and, with ``use_buffers``, buffers) are the
    average of those of every ``model`` passed to ``update_parameters``; ``n_averaged`` (a
    buffer) counts them. The average is SWA's unless ``avg_fn`` (one tensor at a time) or
    ``multi_avg_fn`` (lists of tensors, in place) says otherwise."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        self.register_buffer("n_averaged", ops.tensor(0, dtype=dtypes.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def _averaged_tensors(self, model):
        if self.use_buffers:
            return (itertools.chain(self.module.parameters(), self.module.buffers()),
                    itertools.chain(model.parameters(), model.buffers()))
        return self.parameters(), model.parameters()

    def update_parameters(self, model):
        """Fold ``model``'s current parameters into the average (the first call copies them);
        without ``use_buffers``, its buffers are copied as they are."""
        own, theirs = self._averaged_tensors(model)
        pairs = [(mine.detach(), other.detach()) for mine, other in zip(own, theirs)]
        n_averaged = int(self.n_averaged.item())
        with grad_mode.no_grad():
            if n_averaged == 0:
                for mine, other in pairs:
                    mine.copy_(other)
            elif self.multi_avg_fn is not None:
                for same_dtype in _grouped_by_dtype(pairs):
                    self.multi_avg_fn([m for m, _ in same_dtype], [o for _, o in same_dtype],
                                      self.n_averaged)
            else:
                # without a multi_avg_fn PyTorch averages one tensor at a time on the CPU (its
                # multi-tensor kernels are for accelerators): the default, ``avg + (p - avg) /
                # (n + 1)`` copied back, truncates integer buffers instead of refusing them
                avg_fn = get_swa_avg_fn() if self.avg_fn is None else self.avg_fn
                for mine, other in pairs:
                    mine.copy_(avg_fn(mine, other, self.n_averaged))
            if not self.use_buffers:
                for mine, other in zip(self.module.buffers(), model.buffers()):
                    mine.detach().copy_(other.detach())
            self.n_averaged += 1


def _grouped_by_dtype(pairs):
    """The (average, current) pairs in lists of one dtype each, as PyTorch hands them to a
    ``multi_avg_fn``: its grouping is a hash map that lists the dtypes last seen first (bar
    rare hash collisions among three or more dtypes)."""
    groups = {}
    for pair in pairs:
        groups.setdefault(pair[0].dtype, []).append(pair)
    return list(groups.values())[::-1]


@grad_mode.no_grad()
def update_bn(loader, model, device=None):
    """Recompute the running statistics of ``model``'s batch norms as the plain average over one
    pass of ``loader`` (each batch, or the first item of each batch that is a list or tuple)."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to ``swa_lr`` over ``anneal_epochs`` steps (cosine or linear),
    then holds it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        for lr, group in zip(per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        """The lr this schedule started from, recovered from the current one."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else \
            self._linear_anneal

    def get_lr(self):
        warn_get_lr_outside_step(self)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, prev_lrs)]

    def state_dict(self):
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
