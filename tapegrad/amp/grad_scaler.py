"""``torch.amp.GradScaler``: loss scaling against float16 gradient underflow.

As in PyTorch: for "cuda" without CUDA the scaler warns and disables itself, and a disabled scaler
passes everything through (``scale(loss)`` is ``loss``, ``step`` is ``optimizer.step()``). On "cpu"
it is enabled and does the real work — scale the loss, unscale the gradients, skip the step when
one of them is inf or nan, grow or back off the scale — on tapegrad's float32 gradients.

The scale lives, as in PyTorch, in float32 once the first ``scale()`` made it: ``get_scale()``
and ``state_dict()`` give float32 values (``0.1`` reads back as ``0.10000000149011612``), and
growth and backoff round to float32 at each update.
"""
import collections.abc

import numpy as np

from .. import dtypes, ops
from ..tensor import Tensor
from .._warnings import warn_at_caller
from ..autograd import no_grad

__all__ = ["GradScaler"]

_READY, _UNSCALED, _STEPPED = 0, 1, 2


def _float32(value):
    """``value`` rounded to float32, as PyTorch's one-element float32 scale tensor holds it."""
    return float(np.float32(value))


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        if enabled and device == "cuda":
            warn_at_caller("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                           "Disabling.")
            enabled = False
        self._enabled = enabled
        if enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = float(init_scale)
            self._scale = None    # set by the first scale(), as in PyTorch
            self._growth_factor = float(growth_factor)
            self._backoff_factor = float(backoff_factor)
            self._growth_interval = int(growth_interval)
            self._growth_tracker = 0
            self._stage = {}      # id(optimizer) -> _READY / _UNSCALED / _STEPPED
            self._found_inf = {}  # id(optimizer) -> whether its gradients held inf or nan

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        """``outputs`` times the scale: a tensor, or an iterable of them (lists and tuples keep
        their type, other iterables come back as a lazy ``map``, as in PyTorch)."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._scale = _float32(self._init_scale)
            return outputs * self._scale
        if isinstance(outputs, collections.abc.Iterable):
            scaled = map(self.scale, outputs)
            return type(outputs)(scaled) if isinstance(outputs, (list, tuple)) else scaled
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _check_scale(self, funcname):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate "
                                 "your script did not use scaler.scale(loss or outputs) earlier "
                                 "in the iteration.")

    def unscale_(self, optimizer):
        """Divide ``optimizer``'s gradients by the scale, in place, noting inf and nan."""
        if not self._enabled:
            return
        self._check_scale("unscale_")
        stage = self._stage.get(id(optimizer), _READY)
        if stage == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if stage == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads = [param.grad for group in optimizer.param_groups for param in group["params"]
                 if param.grad is not None]
        if any(grad.dtype == dtypes.float16 for grad in grads):  # checked before any is touched
            raise ValueError("Attempting to unscale FP16 gradients.")
        inverse, found_inf = _float32(1.0 / self._scale), False
        with no_grad():
            for grad in grads:
                grad.mul_(inverse)
                found_inf = found_inf or not bool(ops.isfinite(grad).all())
        self._found_inf[id(optimizer)] = found_inf
        self._stage[id(optimizer)] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step()`` on unscaled gradients, skipped when they hold inf or nan."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale("step")
        if self._stage.get(id(optimizer), _READY) == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if self._stage.get(id(optimizer), _READY) == _READY:
            self.unscale_(optimizer)
        result = None if self._found_inf[id(optimizer)] else optimizer.step(*args, **kwargs)
        self._stage[id(optimizer)] = _STEPPED
        return result

    def update(self, new_scale=None):
        """Back off the scale after a step with inf or nan, grow it after ``growth_interval``
        clean steps; or set it to ``new_scale`` (a float or a one-element tensor)."""
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale = _float32(new_scale)
            else:
                if new_scale.numel() != 1 or new_scale.requires_grad:
                    raise AssertionError("new_scale should be a float or a 1-element "
                                         "torch.cuda.FloatTensor or torch.FloatTensor with "
                                         "requires_grad=False.")
                self._scale = _float32(new_scale.item())
        elif self._found_inf:
            if any(self._found_inf.values()):
                self._scale = _float32(self._scale * self._backoff_factor)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale = _float32(self._scale * self._growth_factor)
                    self._growth_tracker = 0
        else:
            raise AssertionError("No inf checks were recorded prior to update.")
        self._stage.clear()
        self._found_inf.clear()

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        """The scale and its schedule; ``{}`` when disabled."""
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:  # in use: its float32 scale takes the value
            self._scale = _float32(self._init_scale)
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]


