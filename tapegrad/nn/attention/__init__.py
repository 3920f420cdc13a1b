"""``torch.nn.attention``: choosing the scaled-dot-product-attention kernel.

``sdpa_kernel`` sets ``torch.backends.cuda``'s flags for the block, as PyTorch does: code asking
them reads what it set, and ``F.scaled_dot_product_attention`` picks among the kernels PyTorch
has on CPU (flash attention, math) only those allowed.
"""
import contextlib

from ...backends import cuda
from ...backends.cuda import SDPBackend

__all__ = ["SDPBackend", "sdpa_kernel"]


_FLAG_OF = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
            SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn"}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Allow only ``backends`` (one or a list of ``SDPBackend``) inside the block."""
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple, set)) or not all(
            isinstance(b, SDPBackend) for b in backends):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    allowed = {_FLAG_OF[b] for b in backends if b in _FLAG_OF}
    with cuda._sdp_flags({flag: flag in allowed for flag in _FLAG_OF.values()}):
        yield {}
