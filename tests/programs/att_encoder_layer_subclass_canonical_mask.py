# A TransformerEncoderLayer subclass that keeps its attention maps, with forward() copied from
# PyTorch's (F._canonical_mask, F._none_or_dtype) and the encoder helpers from
# torch.nn.modules.transformer (_get_seq_len, _detect_is_causal_mask,
# _generate_square_subsequent_mask), as done in many "return attention weights" answers.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.transformer import (_detect_is_causal_mask, _generate_square_subsequent_mask,
                                          _get_seq_len)


class EncoderLayerWithAttn(nn.TransformerEncoderLayer):
    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = F._canonical_mask(
            mask=src_key_padding_mask, mask_name="src_key_padding_mask",
            other_type=F._none_or_dtype(src_mask), other_name="src_mask", target_type=src.dtype)
        src_mask = F._canonical_mask(mask=src_mask, mask_name="src_mask", other_type=None,
                                     other_name="", target_type=src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x, w = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                              need_weights=True, average_attn_weights=False, is_causal=is_causal)
        self.attn_weights = w.detach()
        return self.dropout1(x)


torch.set_printoptions(precision=3)
layer = EncoderLayerWithAttn(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(layer.parameters()):
        p.copy_((0.4 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i)).reshape(p.shape))

x = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32) * 0.19).reshape(2, 5, 8)
pad = torch.tensor([[False, False, False, False, True], [False, False, True, True, True]])
y = layer(x, src_key_padding_mask=pad)
print(y.shape, layer.attn_weights.shape)
print(layer.attn_weights[1, 0])

seq = _get_seq_len(x, batch_first=True)
mask = _generate_square_subsequent_mask(seq)
print(seq, _get_seq_len(x[0], batch_first=True), mask)
print(_detect_is_causal_mask(mask), _detect_is_causal_mask(mask, size=seq),
      _detect_is_causal_mask(torch.zeros(seq, seq)), _detect_is_causal_mask(None),
      _detect_is_causal_mask(mask, is_causal=False))
y2 = layer(x, src_mask=mask, is_causal=_detect_is_causal_mask(mask, size=seq))
print(layer.attn_weights[0, 1])

ref = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
ref.load_state_dict(layer.state_dict())
print("same as stock layer:", torch.allclose(ref(x, src_key_padding_mask=pad), y, atol=1e-6),
      torch.allclose(ref(x, src_mask=mask, is_causal=True), y2, atol=1e-6))

print(F._canonical_mask(mask=pad, mask_name="pad", other_type=None, other_name="",
                        target_type=torch.float64))
try:
    F._canonical_mask(mask=pad.long(), mask_name="pad", other_type=None, other_name="",
                      target_type=torch.float32)
except AssertionError as e:
    print("AssertionError", e)
try:
    F._none_or_dtype([1, 2])
except RuntimeError as e:
    print("RuntimeError", e)
