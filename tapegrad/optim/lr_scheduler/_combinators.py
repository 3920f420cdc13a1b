"""Schedulers made of schedulers: one after another (``SequentialLR``) or all at once
(``ChainedScheduler``)."""
from bisect import bisect_right

from ._base import LRScheduler, set_group_value
from ._plateau import ReduceLROnPlateau

__all__ = ["SequentialLR", "ChainedScheduler"]


def _check_schedulers(kind, schedulers, optimizer, expected="at least one scheduler"):
    """PyTorch's checks of the members; ``expected`` words the demand for at least one as each
    combinator does."""
    if len(schedulers) < 1:
        raise ValueError(f"{kind} expects {expected}, but got no scheduler.")
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{kind} at index {index} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{kind} does not support `ReduceLROnPlateau` scheduler as it requires additional "
                "kwargs to be specified when calling `step`, but got one at index "
                f"{index} in the given schedulers sequence.")
        if optimizer is not scheduler.optimizer:
            raise ValueError(
                f"{kind} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(scheduler).__name__} at index {index} has "
                f"{scheduler.optimizer}, which is different from {type(optimizer).__name__}.")


class _SchedulerGroup(LRScheduler):
    """State dicts hold each member's state dict in place of the member."""

    def state_dict(self):
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [scheduler.state_dict() for scheduler in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        member_states = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        for scheduler, member_state in zip(self._schedulers, member_states):
            scheduler.load_state_dict(member_state)


class SequentialLR(_SchedulerGroup):
    """``schedulers[i]`` drives the lr from ``milestones[i - 1]`` on, restarted at epoch 0."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        _check_schedulers(type(self).__name__, schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than "
                f"the number of milestone points, but got number of schedulers {len(schedulers)} "
                f"and the number of milestones to be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Undo the steps the members took when they were built, then start the first one afresh.
        for group in optimizer.param_groups:
            set_group_value(group, "lr", group["initial_lr"])
        self._undo_initial_steps(self)
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def _undo_initial_steps(self, scheduler):
        if hasattr(scheduler, "_schedulers"):
            for member in scheduler._schedulers:
                self._undo_initial_steps(member)
        elif hasattr(scheduler, "last_epoch"):
            scheduler.last_epoch -= 1

    def step(self):
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_SchedulerGroup):
    """Every member steps at every ``step()``; their multiplicative effects compose."""

    def __init__(self, schedulers, optimizer=None):
        optimizer = optimizer or (schedulers[0].optimizer if schedulers else None)
        _check_schedulers(type(self).__name__, schedulers, optimizer,
                          "at least one scheduler to be chained")
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = self._current_lrs()

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._current_lrs()
