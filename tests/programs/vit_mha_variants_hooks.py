# nn.MultiheadAttention used the ways ViT/DETR code does: cross-attention with kdim/vdim, add_bias_kv
# and add_zero_attn, need_weights=False, a forward hook grabbing attention maps (attention rollout),
# fully-masked rows, and the module repr / state_dict keys.
import torch
import torch.nn as nn
import torch.nn.functional as F


def init_(m, scale=0.3):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p) * scale)


q = torch.cos(torch.arange(2 * 3 * 8, dtype=torch.float32) * 0.3).view(2, 3, 8)
kv = torch.sin(torch.arange(2 * 5 * 6, dtype=torch.float32) * 0.2).view(2, 5, 6)

cross = nn.MultiheadAttention(8, 2, kdim=6, vdim=6, batch_first=True)
init_(cross)
print(cross)
print(sorted(cross.state_dict().keys()))
out, w = cross(q, kv, kv)
print(out.shape, w.shape, w[0].detach())
out, w = cross(q, kv, kv, need_weights=False)
print(out.shape, w)

bkv = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)
init_(bkv)
print(bkv.bias_k.shape, bkv.bias_v.shape, sorted(n for n, _ in bkv.named_parameters()))
x = q.transpose(0, 1)
o, w = bkv(x, x, x)
print(o.shape, w.shape, w[1, 0].detach())

# hook-based attention rollout
self_attn = nn.MultiheadAttention(8, 2, batch_first=True)
init_(self_attn)
maps = []
h = self_attn.register_forward_hook(lambda mod, inp, outp: maps.append(outp[1].detach()))
for _ in range(2):
    self_attn(q, q, q)
h.remove()
self_attn(q, q, q)
print(len(maps), maps[0].shape)
eye = torch.eye(3)
rollout = eye
for a in maps:
    a = 0.5 * a + 0.5 * eye
    a = a / a.sum(dim=-1, keepdim=True)
    rollout = a @ rollout
print(rollout[0])

# key padding: a row with every key masked gives NaN, as users discover
kpm = torch.tensor([[False, False, True], [True, True, True]])
o, w = self_attn(q, q, q, key_padding_mask=kpm)
print(torch.isnan(o).any(dim=-1), w[0, 0].detach())
sd = F.scaled_dot_product_attention(q.view(2, 1, 3, 8), q.view(2, 1, 3, 8), q.view(2, 1, 3, 8),
                                    attn_mask=~kpm.view(2, 1, 1, 3))
print(torch.isnan(sd).any(dim=-1).view(2, 3))

# float mask broadcast per head: (B * heads, L, S)
fm = torch.zeros(4, 3, 3)
fm[:, 0, 2] = float("-inf")
o, w = self_attn(q, q, q, attn_mask=fm, average_attn_weights=False)
print(w.shape, w[1, 1, 0].detach())
try:
    self_attn(q, q, q, attn_mask=torch.zeros(3, 3, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.MultiheadAttention(10, 3)
except Exception as e:
    print(type(e).__name__, e)
