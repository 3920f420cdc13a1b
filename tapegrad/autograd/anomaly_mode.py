"""Anomaly detection: while enabled (and ``check_nan``), the engine refuses a backward step whose
gradients contain NaN, naming the node that made them — where a NaN gradient is born, not where
it shows up in a ``.grad``. The setting is process-wide, as in PyTorch."""
import warnings

import numpy as np

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]


class _Settings:
    enabled = False
    check_nan = True


_settings = _Settings()


def is_anomaly_enabled():
    return _settings.enabled


def is_anomaly_check_nan_enabled():
    return _settings.check_nan


def _set(enabled, check_nan):
    _settings.enabled, _settings.check_nan = enabled, check_nan


class detect_anomaly:
    """Context manager (or decorator) enabling anomaly detection inside it."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        self._previous = (_settings.enabled, _settings.check_nan)
        _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self._previous)

    def __call__(self, fn):
        def run(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return run


class set_detect_anomaly:
    """Set anomaly detection at once (as a call); as a context manager, restore it on exit."""

    def __init__(self, mode, check_nan=True):
        if not isinstance(mode, bool):
            raise TypeError("set_anomaly_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self._previous = (_settings.enabled, _settings.check_nan)
        _set(mode, check_nan)

    def __enter__(self):
        pass  # the mode was already set by the constructor

    def __exit__(self, *exc):
        _set(*self._previous)


def check_gradients(node, gradients):
    """The engine's check after ``node`` ran, while anomaly detection looks for NaN."""
    for i, g in enumerate(gradients):
        if g is not None and g._array.dtype.kind == "f" and np.isnan(g._array).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
