"""``MultiheadAttention``: scaled dot-product attention over several learned projections.

A composite of recorded ops, with PyTorch's parameters (``in_proj_weight`` packing the query,
key and value projections, or ``q/k/v_proj_weight`` when keys and values have their own sizes;
``bias_k``/``bias_v`` with ``add_bias_kv``) and PyTorch's mask conventions: in a boolean
``attn_mask`` or ``key_padding_mask``, True marks a position that may *not* be attended to.
``multi_head_attention_forward`` is PyTorch's functional form, with its checks and messages in
its order.
"""
import warnings

from ... import dtypes, ops
from ...amp.autocast_mode import is_autocast_enabled
from ...autograd import grad_mode
from ...backends import mha
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention", "multi_head_attention_forward"]


class MultiheadAttention(Module):
    __constants__ = ["batch_first"]

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        factory = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(ops.empty(3 * embed_dim, embed_dim, **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(ops.empty(embed_dim, embed_dim, **factory))
            self.k_proj_weight = Parameter(ops.empty(embed_dim, self.kdim, **factory))
            self.v_proj_weight = Parameter(ops.empty(embed_dim, self.vdim, **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(ops.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        **factory)
        if add_bias_kv:
            self.bias_k = Parameter(ops.empty(1, 1, embed_dim, **factory))
            self.bias_v = Parameter(ops.empty(1, 1, embed_dim, **factory))
        else:
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
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        """PyTorch's steps: both masks made additive floats (warning when their types
        differ); PyTorch's fast path where it takes it; else batch_first inputs made
        sequence-first, then ``multi_head_attention_forward``."""
        is_batched = query.dim() == 3
        why_not_fast_path = self._why_not_fast_path(query, key, value, key_padding_mask,
                                                    attn_mask)
        key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                          none_or_dtype(attn_mask), "attn_mask", query.dtype)
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        if not why_not_fast_path:  # (PyTorch merges the masks even without a bias)
            merged_mask, mask_type = self.merge_masks(attn_mask, key_padding_mask, query)
        if not why_not_fast_path and self.in_proj_bias is not None:
            return _native_attention(self, query, merged_mask, mask_type, need_weights,
                                     average_attn_weights)
        if self.batch_first and is_batched:
            query, key, value = _transposed(query, key, value)
        separate = not self._qkv_same_embed_dim
        output, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and is_batched:
            output = output.transpose(1, 0)
        return output, weights

    def _why_not_fast_path(self, query, key, value, key_padding_mask, attn_mask):
        """Why PyTorch's fused inference kernel (``_native_multi_head_attention``) cannot run,
        "" when it can: batch-first self-attention in eval mode without gradients, an even
        head count, no floating-point mask, none of the extra key/value steps."""
        if any(mask is not None and mask.is_floating_point()
               for mask in (attn_mask, key_padding_mask)):
            return "floating-point masks are not supported for fast path."
        tensors = (query, key, value, self.in_proj_weight, self.in_proj_bias,
                   self.out_proj.weight, self.out_proj.bias)
        blocked = (not mha.get_fastpath_enabled(), query.dim() != 3,
                   query is not key or key is not value,
                   self.in_proj_weight is None or query.dtype != self.in_proj_weight.dtype,
                   self.in_proj_bias is not None and query.dtype != self.in_proj_bias.dtype,
                   self.training, self.num_heads % 2, not self.batch_first,
                   self.bias_k is not None, self.add_zero_attn, is_autocast_enabled(),
                   grad_mode.is_grad_enabled() and any(
                       t is not None and t.requires_grad for t in tensors))
        return "blocked" if any(blocked) else ""

    def merge_masks(self, attn_mask, key_padding_mask, query):
        """The one mask PyTorch's fused kernel takes, and its type: 1 for the
        ``(batch, seq_len)`` key padding mask alone, 2 when an ``attn_mask`` is given (expanded
        to ``(batch, num_heads, seq_len, seq_len)``, plus the padding mask if any: a logical or
        for boolean masks), ``(None, None)`` for neither. ``query`` is batch-first."""
        if attn_mask is None:
            return key_padding_mask, (None if key_padding_mask is None else 1)
        batch, seq_len, _ = query.shape
        if attn_mask.dim() == 3:
            merged = attn_mask.view(batch, -1, seq_len, seq_len)
        else:
            merged = attn_mask.view(1, 1, seq_len, seq_len).expand(batch, self.num_heads, -1, -1)
        if key_padding_mask is not None:
            merged = merged + key_padding_mask.view(batch, 1, 1, seq_len).expand(
                -1, self.num_heads, -1, -1)
        return merged, 2


def _native_attention(module, query, mask, mask_type, need_weights, average_attn_weights):
    """PyTorch's ``_native_multi_head_attention`` on CPU: its merged mask read as boolean
    (nonzero: masked), and a plain softmax, so a query that may attend to nothing gets nan —
    whatever ``need_weights`` — where the slow path's fused attention gives zeros. It ignores
    the ``is_causal`` hint."""
    batch, length, embed_dim = query.shape
    heads, head_dim = module.num_heads, embed_dim // module.num_heads
    projected = F.linear(query, module.in_proj_weight, module.in_proj_bias)
    q, k, v = (t.reshape(batch, length, heads, head_dim).transpose(1, 2)
               for t in projected.chunk(3, -1))
    scores = ops.matmul(q * (1.0 / head_dim) ** 0.5, k.transpose(-2, -1))
    if mask is not None:
        if mask_type == 1 and tuple(mask.shape) != (batch, length):
            raise RuntimeError("For mask_type == 1 mask shape should be (B, L)")
        if mask_type == 2 and tuple(mask.shape) != tuple(scores.shape):
            raise RuntimeError("For mask_type == 2 mask shape should match input shape")
        mask = mask.reshape(batch, 1, 1, length) if mask_type == 1 else mask
        scores = scores.masked_fill(mask != 0, float("-inf"))
    weights = ops.softmax(scores, -1)
    attended = ops.matmul(weights, v).transpose(1, 2).reshape(batch, length, embed_dim)
    output = F.linear(attended, module.out_proj.weight, module.out_proj.bias)
    if not need_weights:
        return output, None
    return output, weights.mean(1) if average_attn_weights else weights


def _transposed(query, key, value):
    """(N, L, E) inputs as (L, N, E), keeping self-attention's ``query is key is value``."""
    if key is value:
        if query is key:
            query = key = value = query.transpose(1, 0)
        else:
            query, key = query.transpose(1, 0), key.transpose(1, 0)
            value = key
        return query, key, value
    return query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)


def none_or_dtype(input):
    """A mask's dtype, None for no mask (``F._none_or_dtype``)."""
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A boolean mask (True: not allowed) as 0 / -inf of ``target_type``, a float mask as it
    is; with PyTorch's warning when ``other_type`` (the other mask's) differs
    (``F._canonical_mask``, with its argument names, which code copying PyTorch's layers uses)."""
    if mask is None:
        return None
    if mask.dtype != dtypes.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use "
                      "same type for both instead.", stacklevel=2)
    if mask.is_floating_point():
        return mask
    return ops.zeros(mask.shape, dtype=target_type).masked_fill(mask, float("-inf"))


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads):
    """PyTorch's ``_mha_shape_check``: the ranks of the inputs and masks; whether batched."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be "
                                 f"3-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 2-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, "
                                 f"2-D or 3-D but found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be "
                                 f"2-D but found {key.dim()}-D and {value.dim()}-D tensors "
                                 "respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be "
                                 f"`None` or 1-D but found {key_padding_mask.dim()}-D tensor "
                                 "instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be "
                                     f"`None`, 2-D or 3-D but found {attn_mask.dim()}-D tensor "
                                     "instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                     f"{attn_mask.shape}")
        return False
    raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}-D query tensor")


def _in_projection(query, key, value, weights, biases):
    """q, k, v projected; self-attention (one input) takes one product with all weights, keys
    that are the values one with the key and value weights (PyTorch's
    ``_in_projection_packed``)."""
    if query is key and key is value and len(weights) == 1:
        return F.linear(query, weights[0], biases).chunk(3, -1)
    if key is value and len(weights) == 1:  # one product for keys and values (its errors)
        size = weights[0].shape[0] // 3
        q_bias, kv_bias = (None, None) if biases is None else biases.split([size, 2 * size])
        q_weight, kv_weight = weights[0].split([size, 2 * size])
        return (F.linear(query, q_weight, q_bias),
                *F.linear(key, kv_weight, kv_bias).chunk(2, -1))
    separate = len(weights) == 3
    if not separate:
        weights = weights[0].chunk(3)
    biases = biases.chunk(3) if biases is not None else (None, None, None)
    if separate:
        _check_projections(query, key, value, weights, biases)
    return tuple(F.linear(t, w, b) for t, w, b in zip((query, key, value), weights, biases))


def _check_projections(query, key, value, weights, biases):
    """PyTorch's ``_in_projection`` checks of separate projections against the inputs' sizes."""
    size = query.size(-1)
    names = ("query", "key", "value")
    for name, t, weight in zip(names, (query, key, value), weights):
        if tuple(weight.shape) != (size, t.size(-1)):
            raise AssertionError(f"expecting {name} weights shape of {(size, t.size(-1))}, but "
                                 f"got {weight.shape}")
    for name, bias in zip(names, biases):
        if bias is not None and tuple(bias.shape) != (size,):
            raise AssertionError(f"expecting {name} bias shape of {(size,)}, but got "
                                 f"{bias.shape}")


def _check_attn_mask(attn_mask, expected_3d):
    """``attn_mask`` as (1 or N·heads, L, S), after PyTorch's check of its shape."""
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != expected_3d[1:]:
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should "
                               f"be {expected_3d[1:]}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != expected_3d:
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {expected_3d}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """PyTorch's ``F.multi_head_attention_forward`` over sequence-first (L, N, E) inputs — or
    unbatched (L, E) — with its checks and messages in its order. ``bias_k``/``bias_v`` add one
    learned key/value step, ``add_zero_attn`` one zero step; the masks grow to match."""
    is_batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    target_length, batch, embed_dim = query.shape
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the hint alone says it: scaled_dot_product_attention masks
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        weights = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        weights = (in_proj_weight,)
    q, k, v = _in_projection(query, key, value, weights, in_proj_bias)
    if attn_mask is not None:
        attn_mask = _check_attn_mask(attn_mask,
                                     (batch * num_heads, target_length, key.shape[0]))
    if (bias_k is None) != (bias_v is None):
        raise AssertionError(f"{'bias_k' if bias_v is None else 'bias_v'} is set but "
                             f"{'bias_v' if bias_v is None else 'bias_k'} is None")
    if bias_k is not None:
        if static_k is not None or static_v is not None:
            raise AssertionError(f"bias cannot be added to static "
                                 f"{'key' if static_k is not None else 'value'}.")
        k = ops.cat([k, bias_k.repeat(1, batch, 1)])
        v = ops.cat([v, bias_v.repeat(1, batch, 1)])
        attn_mask, key_padding_mask = _one_more_step(attn_mask, key_padding_mask)
    q = _heads(q, batch * num_heads, head_dim)
    k = _heads(k, batch * num_heads, head_dim) if static_k is None else \
        _static(static_k, "static_k", batch * num_heads, head_dim)
    v = _heads(v, batch * num_heads, head_dim) if static_v is None else \
        _static(static_v, "static_v", batch * num_heads, head_dim)
    if add_zero_attn:
        zeros = ops.zeros(batch * num_heads, 1, head_dim, dtype=k.dtype)
        k, v = ops.cat([k, zeros], 1), ops.cat([v, zeros], 1)
        attn_mask, key_padding_mask = _one_more_step(attn_mask, key_padding_mask)
    source_length = k.shape[1]
    if key_padding_mask is not None:
        _check_key_padding_mask(key_padding_mask, source_length, batch)
        padding = key_padding_mask.reshape(batch, 1, 1, source_length).expand(
            -1, num_heads, -1, -1).reshape(batch * num_heads, 1, source_length)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    if not training:
        dropout_p = 0.0
    if need_weights:
        scaled_q = q * (1.0 / head_dim) ** 0.5
        scores = ops.bmm(scaled_q, k.transpose(-2, -1)) if attn_mask is None else \
            ops.baddbmm(attn_mask, scaled_q, k.transpose(-2, -1))  # refuses a mask of another dtype
        weights = ops.softmax(scores, -1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, dropout_p)
        attended = ops.bmm(weights, v).transpose(0, 1)
    else:
        weights = None
        if attn_mask is not None:
            attn_mask = attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1 else \
                attn_mask.reshape(batch, num_heads, -1, source_length)
        # (as PyTorch's views: values of another length than the keys fail here)
        q, k, v = (t.view(batch, num_heads, length, head_dim) for t, length in
                   zip((q, k, v), (target_length, source_length, source_length)))
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
        attended = attended.permute(2, 0, 1, 3)
    output = F.linear(attended.reshape(target_length * batch, embed_dim), out_proj_weight,
                      out_proj_bias).view(target_length, batch, -1)
    if weights is not None:
        weights = weights.view(batch, num_heads, target_length, source_length)
        if average_attn_weights:
            weights = weights.mean(1)
    if not is_batched:
        output = output.squeeze(1)
        weights = weights.squeeze(0) if weights is not None else None
    return output, weights


def _heads(projected, batch_heads, head_dim):
    """(L, N, E) as (N·heads, L, head_dim): every head of every sample a separate batch."""
    return projected.reshape(projected.shape[0], batch_heads, head_dim).transpose(0, 1)


def _static(given, name, batch_heads, head_dim):
    """Precomputed keys or values (N·heads, S, head_dim), checked."""
    if given.shape[0] != batch_heads:
        raise AssertionError(f"expecting {name}.size(0) of {batch_heads}, but got "
                             f"{given.shape[0]}")
    if given.shape[2] != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got "
                             f"{given.shape[2]}")
    return given


def _one_more_step(attn_mask, key_padding_mask):
    """Both masks with one more (allowed) source position, for an appended key/value step."""
    return tuple(None if mask is None else F.pad(mask, (0, 1))
                 for mask in (attn_mask, key_padding_mask))


def _check_key_padding_mask(key_padding_mask, source_length, batch):
    if key_padding_mask.shape[0] != batch:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {batch}, but got "
                             f"{key_padding_mask.shape[0]}")
    if key_padding_mask.shape[1] != source_length:
        raise AssertionError(f"Expected key_padded_mask.shape[1] to be {source_length}, but "
                             f"got {key_padding_mask.shape[1]}")
