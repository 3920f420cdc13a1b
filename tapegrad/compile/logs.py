"""What the compiler reports, and the switches for it.

Turn reports on with the environment (``TAPEGRAD_LOGS=recompiles,timing``) or in code
(``tapegrad.compile.set_logs(recompiles=True, timing=True)``). They go to the ``tapegrad.compile``
logger (printed to stderr unless the application configured logging itself):

* ``recompiles`` — every new specialization and which guard failed, in plain words;
* ``graph_breaks`` — each graph break (the first one per function is also a warning);
* ``timing`` — seconds spent per stage: trace, autodiff, passes, codegen, numba;
* ``kernels`` — where each kernel came from (compiled, or loaded from the disk cache).
"""
import logging
import os

__all__ = ["set_logs", "log", "enabled", "KINDS"]

KINDS = ("recompiles", "graph_breaks", "timing", "kernels")

logger = logging.getLogger("tapegrad.compile")
_enabled = set()


def set_logs(**kinds):
    """Switch report kinds on or off: ``set_logs(recompiles=True, timing=False)``."""
    for kind, on in kinds.items():
        if kind not in KINDS:
            raise ValueError(f"unknown log kind {kind!r}; choose from {', '.join(KINDS)}")
        (_enabled.add if on else _enabled.discard)(kind)
    if _enabled and not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[tapegrad.compile] %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO if _enabled else logging.WARNING)


def enabled(kind):
    return kind in _enabled


def log(kind, message):
    if kind in _enabled:
        logger.info(message)


def _from_environment():
    requested = [k.strip() for k in os.environ.get("TAPEGRAD_LOGS", "").split(",") if k.strip()]
    if requested == ["all"]:
        requested = list(KINDS)
    set_logs(**{kind: True for kind in requested if kind in KINDS})


_from_environment()
