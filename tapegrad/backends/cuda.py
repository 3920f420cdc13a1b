"""``torch.backends.cuda``: the switches of cuBLAS and of the attention kernels.

tapegrad has neither, but training scripts set them (``matmul.allow_tf32 = True``) and ask them
(``flash_sdp_enabled()``) whatever the device. The flags are kept as PyTorch keeps them, with no
effect on tapegrad's float32 kernels: ``matmul.allow_tf32`` reads and writes
``torch.get_float32_matmul_precision()`` ("high" when allowed), exactly as in PyTorch.
"""
import contextlib
import enum
import warnings

from .. import _runtime

__all__ = ["is_built", "is_flash_attention_available", "matmul", "flash_sdp_enabled",
           "enable_flash_sdp", "mem_efficient_sdp_enabled", "enable_mem_efficient_sdp",
           "math_sdp_enabled", "enable_math_sdp", "cudnn_sdp_enabled", "enable_cudnn_sdp",
           "sdp_kernel", "SDPBackend"]


def is_built():
    """Whether this build supports CUDA: never."""
    return False


def is_flash_attention_available():
    """Whether FlashAttention kernels were compiled in: a GPU feature, so never."""
    return False


class cuBLASModule:
    """``torch.backends.cuda.matmul``: cuBLAS's precision switches."""

    _FLAGS = ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction",
              "allow_fp16_accumulation")

    def __init__(self):
        object.__setattr__(self, "_flags", {"allow_fp16_reduced_precision_reduction": True,
                                            "allow_bf16_reduced_precision_reduction": True,
                                            "allow_fp16_accumulation": False})

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _runtime.get_float32_matmul_precision() != "highest"
        if name in self._flags:
            return self._flags[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _runtime.set_float32_matmul_precision("high" if value else "highest")
        elif name in self._flags:
            self._flags[name] = value
        else:
            raise AttributeError(f"Unknown attribute {name}")


matmul = cuBLASModule()

class SDPBackend(enum.IntEnum):
    """The kernels of ``scaled_dot_product_attention`` PyTorch knows."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __repr__(self):
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __str__(self):
        return f"SDPBackend.{self.name}"


# Which scaled-dot-product-attention kernels PyTorch may pick; on CPU, F.scaled_dot_product_attention
# reads "flash" and "math" (the others exist only on GPUs).
_sdp_enabled = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled():
    return _sdp_enabled["flash"]


def enable_flash_sdp(enabled):
    _sdp_enabled["flash"] = bool(enabled)


def mem_efficient_sdp_enabled():
    return _sdp_enabled["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    _sdp_enabled["mem_efficient"] = bool(enabled)


def math_sdp_enabled():
    return _sdp_enabled["math"]


def enable_math_sdp(enabled):
    _sdp_enabled["math"] = bool(enabled)


def cudnn_sdp_enabled():
    return _sdp_enabled["cudnn"]


def enable_cudnn_sdp(enabled):
    _sdp_enabled["cudnn"] = bool(enabled)


@contextlib.contextmanager
def sdp_kernel(enable_flash=True, enable_math=True, enable_mem_efficient=True,
               enable_cudnn=True):
    """The deprecated form of ``torch.nn.attention.sdpa_kernel``: the flags inside the block."""
    warnings.warn("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context "
                  "manager will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the "
                  "new context manager, with updated signature.", FutureWarning, stacklevel=3)
    with _sdp_flags({"flash": enable_flash, "math": enable_math,
                     "mem_efficient": enable_mem_efficient, "cudnn": enable_cudnn}):
        yield {}


@contextlib.contextmanager
def _sdp_flags(flags):
    """Set the kernel flags for a block, restoring the previous ones after it."""
    previous = dict(_sdp_enabled)
    _sdp_enabled.update({name: bool(value) for name, value in flags.items()})
    try:
        yield
    finally:
        _sdp_enabled.update(previous)

