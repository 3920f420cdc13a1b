"""Warnings attributed to the user's line, however deep inside tapegrad they are raised (a
backward pass runs hooks and rules many frames below the ``loss.backward()`` that started it)."""
import os
import sys
import warnings

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_at_caller(message, category=UserWarning):
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
