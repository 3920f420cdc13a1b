"""``MultiheadAttention``: scaled dot-product attention over several learned projections.

A composite of recorded ops, with PyTorch's parameters (``in_proj_weight`` packing the query,
key and value projections, or ``q/k/v_proj_weight`` when keys and values have their own sizes)
and PyTorch's mask conventions: in a boolean ``attn_mask`` or ``key_padding_mask``, True marks a
position that may *not* be attended to.
"""
import math

from ... import dtypes, ops
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention: add_bias_kv and add_zero_attn are "
                                      "not supported")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(ops.empty(3 * embed_dim, embed_dim, dtype=dtype))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(ops.empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(ops.empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(ops.empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(ops.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)

    def _projection_weights(self):
        if self._qkv_same_embed_dim:
            return self.in_proj_weight.chunk(3)
        return self.q_proj_weight, self.k_proj_weight, self.v_proj_weight

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        if is_causal and attn_mask is None:  # PyTorch takes is_causal as a hint, never as the mask
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                               "Transformer module method `generate_square_subsequent_mask` to "
                               "create this mask.")
        unbatched = query.dim() == 2
        if unbatched:
            query, key, value = (t.unsqueeze(1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        target_length, batch, _ = query.shape
        source_length = key.shape[0]
        biases = (self.in_proj_bias.chunk(3) if self.in_proj_bias is not None
                  else (None, None, None))
        q, k, v = (self._heads(F.linear(t, w, b), batch)
                   for t, w, b in zip((query, key, value), self._projection_weights(), biases))
        scores = ops.matmul(q, k.transpose(-2, -1)) * (1 / math.sqrt(self.head_dim))
        mask = self._additive_mask(attn_mask, key_padding_mask, target_length, source_length,
                                   batch, scores.dtype)
        if mask is not None:
            scores = scores + mask
        weights = ops.softmax(scores, -1)
        if self.dropout > 0.0:
            weights = F.dropout(weights, self.dropout, self.training)
        attended = ops.matmul(weights, v)  # (N·heads, L, head_dim)
        output = attended.transpose(0, 1).reshape(target_length, batch, self.embed_dim)
        output = self.out_proj(output)
        if unbatched:
            output = output.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        if not need_weights:
            return output, None
        weights = weights.reshape(batch, self.num_heads, target_length, source_length)
        if average_attn_weights:
            weights = weights.mean(1)
        return output, weights.squeeze(0) if unbatched else weights

    def _heads(self, projected, batch):
        """(L, N, E) as (N·heads, L, head_dim): every head of every sample a separate batch."""
        length = projected.shape[0]
        return projected.reshape(length, batch * self.num_heads, self.head_dim).transpose(0, 1)

    def _additive_mask(self, attn_mask, key_padding_mask, target_length, source_length, batch,
                       dtype):
        """attn_mask and key_padding_mask as one float mask to add to the (N·heads, L, S)
        scores: -inf where attention is not allowed."""
        mask = None
        if attn_mask is not None:
            mask = _as_additive(attn_mask, dtype)
            if mask.dim() == 3:
                mask = mask.reshape(batch * self.num_heads, target_length, source_length)
        if key_padding_mask is not None:
            padding = _as_additive(key_padding_mask, dtype).reshape(batch, 1, 1, source_length)
            padding = padding.expand(batch, self.num_heads, 1, source_length).reshape(
                batch * self.num_heads, 1, source_length)
            mask = padding if mask is None else mask + padding
        return mask


def _as_additive(mask, dtype):
    """A boolean mask (True: not allowed) as 0 / -inf; a float mask as it is."""
    if mask.dtype == dtypes.bool:
        return ops.zeros(mask.shape, dtype=dtype).masked_fill(mask, float("-inf"))
    return mask.to(dtype)
