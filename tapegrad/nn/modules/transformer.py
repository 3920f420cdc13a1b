"""The transformer of "Attention Is All You Need", as PyTorch builds it.

``TransformerEncoderLayer`` (self-attention, then a feed-forward block) and
``TransformerDecoderLayer`` (self-attention, attention to the encoder's output, then a
feed-forward block) wrap each block in a residual connection with a layer norm before
(``norm_first``) or after. ``TransformerEncoder`` and ``TransformerDecoder`` stack independent
copies of a layer; ``Transformer`` joins an encoder and a decoder.
"""
import copy
import warnings

from ... import ops
from ...tensor import _warn_once
from ...autograd import grad_mode
from ...backends import mha
from .. import functional as F
from .. import init
from .activation import GELU, ReLU
from ...amp.autocast_mode import is_autocast_enabled
from .attention import MultiheadAttention, _native_attention, canonical_mask, none_or_dtype
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]

_ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu}


def _activation_function(activation):
    """A callable as it is; "relu" or "gelu" as the function of that name."""
    if not isinstance(activation, str):
        return activation
    if activation not in _ACTIVATIONS:
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return _ACTIVATIONS[activation]


def _get_clones(module, n):
    """``n`` deep copies of ``module``: every copy trains its own parameters."""
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _attend(attention, query, memory, mask, key_padding_mask, is_causal):
    """The output of ``attention`` from ``query`` to ``memory`` (keys and values alike)."""
    return attention(query, memory, memory, attn_mask=mask, key_padding_mask=key_padding_mask,
                     need_weights=False, is_causal=is_causal)[0]


def _fused_activation_code(activation):
    """PyTorch's record of whether its fused kernels know the activation: 1 relu, 2 gelu, else 0."""
    if activation is F.relu or isinstance(activation, ReLU):
        return 1
    if activation is F.gelu or isinstance(activation, GELU):
        return 2
    return 0


class _TransformerLayer(Module):
    """What encoder and decoder layers share: the submodules, in PyTorch's registration order
    (a decoder layer adds ``multihead_attn``, ``norm3`` and ``dropout3`` for attending to the
    encoder's output), and the residual blocks built from them."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                 batch_first, norm_first, bias, device, dtype, *, cross_attention):
        super().__init__()
        factory = {"device": device, "dtype": dtype}

        def attention():
            return MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                      batch_first=batch_first, **factory)

        def norm():
            return LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)

        self.self_attn = attention()
        if cross_attention:
            self.multihead_attn = attention()
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = norm()
        self.norm2 = norm()
        if cross_attention:
            self.norm3 = norm()
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if cross_attention:
            self.dropout3 = Dropout(dropout)
        activation = _activation_function(activation)
        if not cross_attention:  # the encoder's fast-path code, set first as in PyTorch
            self.activation_relu_or_gelu = _fused_activation_code(activation)
        self.activation = activation

    def _residual(self, x, norm, block, *args):
        """``x`` plus ``block(x, *args)``, with ``norm`` applied to the block's input
        (``norm_first``) or to the sum."""
        if self.norm_first:
            return x + block(norm(x), *args)
        return norm(x + block(x, *args))

    def _self_attention_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        return self.dropout1(_attend(self.self_attn, x, x, attn_mask, key_padding_mask,
                                     is_causal))

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(_TransformerLayer):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, bias, device, dtype, cross_attention=False)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = canonical_mask(src_mask, "src_mask", None, "", src.dtype)
        if not self._why_not_fast_path(src):
            merged_mask, mask_type = self.self_attn.merge_masks(src_mask, src_key_padding_mask,
                                                                src)
            x = self._residual(src, self.norm1, self._fused_self_attention, merged_mask,
                               mask_type)
            return self._residual(x, self.norm2, self._feed_forward)
        x = self._residual(src, self.norm1, self._sa_block, src_mask, src_key_padding_mask,
                           is_causal)
        return self._residual(x, self.norm2, self._ff_block)

    def _why_not_fast_path(self, src):
        """Why PyTorch's fused inference kernel (``_transformer_encoder_layer_fwd``) cannot run,
        "" when it can: batched batch-first input in eval mode without gradients, relu or gelu,
        an even head count, no hooks (masks of any type)."""
        attention = self.self_attn
        tensors = (src, attention.in_proj_weight, attention.in_proj_bias,
                   attention.out_proj.weight, attention.out_proj.bias, self.norm1.weight,
                   self.norm1.bias, self.norm2.weight, self.norm2.bias, self.linear1.weight,
                   self.linear1.bias, self.linear2.weight, self.linear2.bias)
        blocked = (not mha.get_fastpath_enabled(), src.dim() != 3, self.training,
                   not attention.batch_first, attention.in_proj_bias is None,
                   not attention._qkv_same_embed_dim, not self.activation_relu_or_gelu,
                   self.norm1.eps != self.norm2.eps, attention.num_heads % 2,
                   is_autocast_enabled(),
                   any(len(getattr(m, "_forward_hooks", {})) +
                       len(getattr(m, "_forward_pre_hooks", {})) for m in self.modules()),
                   grad_mode.is_grad_enabled() and any(
                       t is not None and t.requires_grad for t in tensors))
        return "blocked" if any(blocked) else ""

    def _fused_self_attention(self, x, merged_mask, mask_type):
        """The fused kernel's self-attention: its merged mask read as boolean, nan for a
        query that may attend to nothing, the ``is_causal`` hint ignored."""
        return _native_attention(self.self_attn, x, merged_mask, mask_type, False, True)[0]

    def __setstate__(self, state):
        """Unpickling (and deep copies): a layer saved before ``activation`` existed gets relu."""
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    # The blocks under PyTorch's private names and signatures (in each class's own namespace, as
    # there), which subclasses override.
    _sa_block = _TransformerLayer._self_attention_block

    def _ff_block(self, x):
        return self.dropout2(self._feed_forward(x))


class TransformerDecoderLayer(_TransformerLayer):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, bias, device, dtype, cross_attention=True)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = self._residual(tgt, self.norm1, self._sa_block, tgt_mask, tgt_key_padding_mask,
                           tgt_is_causal)
        x = self._residual(x, self.norm2, self._mha_block, memory, memory_mask,
                           memory_key_padding_mask, memory_is_causal)
        return self._residual(x, self.norm3, self._ff_block)

    def __setstate__(self, state):
        """PyTorch's: an ``activation`` missing from the instance dict gets relu — also one
        that is a module (kept in ``_modules``), so a copied or unpickled layer (as in
        ``TransformerDecoder``'s clones) applies relu instead of its activation module."""
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    _sa_block = _TransformerLayer._self_attention_block

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        return self.dropout2(_attend(self.multihead_attn, x, mem, attn_mask, key_padding_mask,
                                     is_causal))

    def _ff_block(self, x):
        return self.dropout3(self._feed_forward(x))


class TransformerEncoder(Module):
    """``num_layers`` independent copies of ``encoder_layer``, then an optional final norm.

    Where PyTorch runs inference on nested tensors (``use_nested_tensor``, see
    ``_padded_positions``), its padded positions come out as zeros, after its one-time warning
    that nested tensors are a prototype; so do they here. The layers get ``is_causal`` as
    PyTorch detects it (``_detect_is_causal_mask``)."""
    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", stacklevel=2)  # at its caller, as PyTorch's
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              none_or_dtype(mask), "mask", src.dtype)
        mask = canonical_mask(mask, "mask", None, "", src.dtype)
        batch_first = self.layers[0].self_attn.batch_first
        padded = self._padded_positions(src, mask, src_key_padding_mask)
        if padded is not None:
            _warn_once(_NESTED_TENSOR_PROTOTYPE)
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        if padded is not None:
            output = _to_padded_tensor(output, padded)
        return output if self.norm is None else self.norm(output)

    def _padded_positions(self, src, mask, key_padding_mask):
        """The (N, S) padded positions when PyTorch would take its nested-tensor path —
        inference (eval mode, no gradient wanted) over a batched input with a left-aligned
        padding mask and no attention mask — else None."""
        first = self.layers[0]
        if not mha.get_fastpath_enabled() or not getattr(self, "use_nested_tensor", False) or \
                first.training or src.dim() != 3 or key_padding_mask is None or mask is not None:
            return None
        padded = key_padding_mask != 0  # (canonical: -inf where padded)
        if getattr(self, "mask_check", True) and (padded[:, 1:] < padded[:, :-1]).any():
            return None  # not left-aligned
        attention = first.self_attn
        weights = (src, attention.in_proj_weight, attention.in_proj_bias,
                   attention.out_proj.weight, attention.out_proj.bias, first.norm1.weight,
                   first.norm1.bias, first.norm2.weight, first.norm2.bias, first.linear1.weight,
                   first.linear1.bias, first.linear2.weight, first.linear2.bias)
        if grad_mode.is_grad_enabled() and any(t is not None and t.requires_grad
                                               for t in weights):
            return None
        return padded


def _to_padded_tensor(output, padded):
    """The nested path's output back as a padded tensor: zeros at padded positions; PyTorch's
    error when every position was padded (a nested tensor of empty sequences)."""
    if padded.numel() and bool(padded.all()):
        raise RuntimeError("to_padded_tensor: at least one constituent tensor should have "
                           "non-zero numel")
    return output.masked_fill(padded.unsqueeze(-1), 0.0)


_NESTED_TENSOR_PROTOTYPE = (
    "The PyTorch API of nested tensors is in prototype stage and will change in the near "
    "future. We recommend specifying layout=torch.jagged when constructing a nested tensor, as "
    "this layout receives active development, has better operator coverage, and works with "
    "torch.compile.")


def _get_seq_len(src, batch_first):
    """The length of the sequences in ``src``: (S, E) unbatched, else (S, N, E) or (N, S, E)."""
    if src.dim() == 2:
        return src.shape[0]
    return src.shape[1 if batch_first else 0]


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    """PyTorch's reading of the ``is_causal`` hint: True or False as given; None (no hint)
    means "whether ``mask`` equals the causal float mask of ``size``" (by default the mask's
    own number of rows; False without a mask)."""
    if is_causal is not None or mask is None:
        return is_causal is True
    size = mask.shape[-2] if size is None else size
    causal = _generate_square_subsequent_mask(size, device=mask.device, dtype=mask.dtype)
    return tuple(mask.shape) == tuple(causal.shape) and bool((mask == causal).all())


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """A float (sz, sz) causal mask: -inf above the diagonal (future positions), 0 elsewhere."""
    return ops.full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)


def _why_no_nested_tensor(layer):
    """PyTorch's reason (in its words) why an encoder of copies of ``layer`` cannot run on
    nested tensors; "" when it can."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{name}.self_attn.batch_first was not True(use batch_first for better "
                "inference performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


class TransformerDecoder(Module):
    """``num_layers`` independent copies of ``decoder_layer``, each attending to the same
    ``memory``, then an optional final norm."""
    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        length = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, length)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder over ``src`` and a decoder over ``tgt`` that attends to the encoder's output,
    each ending in a layer norm; ``custom_encoder`` / ``custom_decoder`` replace either."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        super().__init__()
        layer_options = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                         batch_first, norm_first, bias, device, dtype)

        def final_norm():
            return LayerNorm(d_model, eps=layer_norm_eps, bias=bias, device=device, dtype=dtype)

        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*layer_options), num_encoder_layers, final_norm())
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*layer_options), num_decoder_layers, final_norm())
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.size(batch_dim) != tgt.size(batch_dim):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """A float (sz, sz) causal mask: -inf above the diagonal (future positions), 0 elsewhere."""
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self):
        """Xavier-uniform for every weight matrix (PyTorch's choice), replacing the layers'
        own initialisation; the clones of a layer thereby stop sharing initial values."""
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
