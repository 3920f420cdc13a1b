"""``torch.backends.mkldnn``: oneDNN, which tapegrad (numpy kernels) does not use; its flags are
settable attributes with no effect, so CPU-tuning boilerplate runs unchanged."""

import sys

from ._flags import flags_of

__all__ = ["is_available", "flags", "enabled", "deterministic", "allow_tf32", "fp32_precision"]

enabled = True
deterministic = False
allow_tf32 = True
fp32_precision = "none"

flags = flags_of(sys.modules[__name__], {
    "enabled": False, "deterministic": False, "allow_tf32": True, "fp32_precision": "none"})


def is_available():
    return False
