"""Warnings attributed to the user's line, however deep inside tapegrad they are raised (a
backward pass runs hooks and rules many frames below the ``loss.backward()`` that started it),
and numpy's floating-point warnings kept out of tapegrad's computations."""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_at_caller(message, category=UserWarning):
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# PyTorch computes 1/0 = inf, log(0) = -inf and inf - inf = nan silently; numpy warns. A filter
# scoped to tapegrad's modules silences numpy there and nowhere else, at almost no cost per
# operation (np.errstate costs ~0.7 us each time). It must stay first in ``warnings.filters``:
# a filter added later (``simplefilter("always")`` or ``"error"`` in a ``catch_warnings``
# block, pytest's -W options, or a ``catch_warnings`` block exiting that had imported tapegrad)
# would take precedence. So the op table, in-place writes and the engine check that it is still
# first (one identity test, ~15 ns) and put it back when it is not.
_NUMPY_FLOATING_POINT = dict(action="ignore",
                             message=r"(divide by zero|invalid value|overflow) encountered",
                             category=RuntimeWarning, module=r"tapegrad\.")
numpy_quiet = [None]  # the filter entry as installed, for that identity test


def quiet_numpy():
    """Put tapegrad's filter of numpy's floating-point warnings first in ``warnings.filters``."""
    warnings.filterwarnings(**_NUMPY_FLOATING_POINT)
    numpy_quiet[0] = warnings.filters[0]


def keep_numpy_quiet():
    """``quiet_numpy()`` unless tapegrad's filter is still first (the op table inlines this)."""
    filters = warnings.filters
    if not filters or filters[0] is not numpy_quiet[0]:
        quiet_numpy()


quiet_numpy()
