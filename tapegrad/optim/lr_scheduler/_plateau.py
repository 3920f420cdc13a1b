"""``ReduceLROnPlateau``: cut the lr when a metric has stopped improving."""
import math
import warnings

from ._base import EPOCH_DEPRECATION_WARNING, LRScheduler, check_optimizer, set_group_value

__all__ = ["ReduceLROnPlateau"]


class ReduceLROnPlateau(LRScheduler):
    """Multiplies the lr by ``factor`` after ``patience`` epochs without improvement of the metric
    passed to ``step(metrics)``, then waits ``cooldown`` epochs; never below ``min_lr``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        self.optimizer = check_optimizer(optimizer)
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(f"expected {groups} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * groups
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def _is_better(self, value, best):
        if self.mode == "min":
            if self.threshold_mode == "rel":
                return value < best * (1.0 - self.threshold)
            return value < best - self.threshold
        if self.threshold_mode == "rel":
            return value > best * (self.threshold + 1.0)
        return value > best + self.threshold

    def step(self, metrics, epoch=None):
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._current_lrs()

    def _reduce_lr(self):
        groups = len(self.optimizer.param_groups)
        if groups != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({groups}) differs from when "
                    f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a "
                    "new param group being added to the optimizer. Please modify the `min_lrs` "
                    "field to match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * groups
        for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                set_group_value(group, "lr", new_lr)

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)
