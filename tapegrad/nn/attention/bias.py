"""``torch.nn.attention.bias``: causal masks that ``F.scaled_dot_product_attention`` takes as
``attn_mask`` without building them.

A ``CausalBias`` is a Tensor subclass, as in PyTorch. ``scaled_dot_product_attention`` hands
it to ``CausalBias._dispatch``: through ``F.ATTN_MASK_HANDLERS`` (tapegrad's own subclasses do
not switch ``__torch_function__`` dispatch on), or through its ``__torch_function__`` once a
user's subclass has. That runs the attention with ``is_causal=True`` (upper-left alignment, or
either when the query and key lengths agree) or with the materialised lower-right mask (the
query's last position aligned with the last key, as when decoding against a KV cache). Like
PyTorch's, the tensor itself is the uninitialised ``(variant, seq_len_q, seq_len_kv)`` tensor
``Tensor.__new__`` makes of the constructor's arguments; only ``_materialize`` gives the mask.
"""
import warnings
from enum import IntEnum, auto

from ... import dtypes, ops
from ...tensor import Tensor
from .. import functional as F

__all__ = ["causal_upper_left", "causal_lower_right", "CausalVariant", "CausalBias"]


class CausalVariant(IntEnum):
    """Where the causal triangle is anchored: the top-left corner (``is_causal=True``) or the
    bottom-right one."""
    UPPER_LEFT = auto()
    LOWER_RIGHT = auto()


class CausalBias(Tensor):
    """A causal ``attn_mask`` for ``scaled_dot_product_attention``, never materialised there
    unless the lower-right variant needs it."""

    def __init__(self, variant, seq_len_q, seq_len_kv):
        if not isinstance(variant, CausalVariant):
            raise AssertionError(f"variant must be a CausalVariant, got {type(variant).__name__}")
        super().__init__()
        self.variant = variant
        self.seq_len_q = seq_len_q
        self.seq_len_kv = seq_len_kv
        if seq_len_q > seq_len_kv and variant == CausalVariant.LOWER_RIGHT:
            warnings.warn("Lower right causal bias will produce NaNs in the output when "
                          "seq_len_q > seq_len_kv!", stacklevel=2)

    def _upper_left(self, device):
        return ops.tril(ops.ones(self.seq_len_q, self.seq_len_kv, dtype=dtypes.bool, device=device))

    def _lower_right(self, device):
        ones = ops.ones(self.seq_len_q, self.seq_len_kv, dtype=dtypes.bool, device=device)
        return ops.tril(ones, diagonal=self.seq_len_kv - self.seq_len_q)

    def _materialize(self, device=None):
        """The boolean mask (True: may attend) this bias stands for."""
        if self.variant == CausalVariant.UPPER_LEFT:
            return self._upper_left(device)
        return self._lower_right(device)

    @staticmethod
    def _dispatch(query, key, value, attn_mask, dropout_p=0.0, is_causal=False, scale=None,
                  enable_gqa=False):
        """``scaled_dot_product_attention`` with ``attn_mask`` a ``CausalBias``."""
        if is_causal:
            raise ValueError("CausalBias should not be used with causal=True")
        square = attn_mask.seq_len_q == attn_mask.seq_len_kv
        if square or attn_mask.variant == CausalVariant.UPPER_LEFT:
            mask, is_causal = None, True
        else:
            mask = attn_mask._materialize(query.device)
        return F.scaled_dot_product_attention(query, key, value, attn_mask=mask,
                                              dropout_p=dropout_p, is_causal=is_causal,
                                              scale=scale, enable_gqa=enable_gqa)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is F.scaled_dot_product_attention:
            return cls._dispatch(*args, **(kwargs or {}))
        return super().__torch_function__(func, types, args, kwargs)

    def __repr__(self):
        return repr(self._materialize())

    __str__ = __repr__  # Tensor's own __str__ is its __repr__, not this one


def _sizes(size, name):
    if len(size) != 2:
        raise AssertionError(f"{name} only supports 2D tensors")
    return size


def causal_upper_left(*size):
    """The ``(seq_len_q, seq_len_kv)`` mask ``tril(ones(size))``, i.e. ``is_causal=True``."""
    return CausalBias(CausalVariant.UPPER_LEFT, *_sizes(size, "causal_upper_left"))


def causal_lower_right(*size):
    """The ``(seq_len_q, seq_len_kv)`` mask ``tril(ones(size), seq_len_kv - seq_len_q)``: each
    query sees every key up to its own position counted from the end."""
    return CausalBias(CausalVariant.LOWER_RIGHT, *_sizes(size, "causal_lower_right"))


# how scaled_dot_product_attention finds _dispatch while subclass dispatch is off
F.ATTN_MASK_HANDLERS[CausalBias] = CausalBias._dispatch
