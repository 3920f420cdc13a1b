# Graph attention on a dense, padded batch (the "graph transformer" idiom): adjacency used as an
# attention mask with masked_fill(-inf), rows with no neighbours produce NaN and are cleaned up
# with nan_to_num / torch.where(isnan), plus nn.MultiheadAttention with a boolean attn_mask.
import torch
import torch.nn as nn
import torch.nn.functional as F

# two graphs padded to 4 nodes; graph 1 has 3 real nodes, node 3 of graph 0 is isolated
adj = torch.zeros(2, 4, 4, dtype=torch.bool)
adj[0, torch.tensor([0, 1, 1, 2]), torch.tensor([1, 0, 2, 1])] = True
adj[1, torch.tensor([0, 0, 1, 2]), torch.tensor([1, 2, 0, 0])] = True
node_mask = torch.tensor([[True, True, True, True], [True, True, True, False]])
print(adj.sum(dim=(1, 2)), adj.sum(-1))

x = torch.arange(24.).view(2, 4, 3) / 10
Wq = torch.linspace(-0.5, 0.5, 9).view(3, 3)
Wk = torch.linspace(0.4, -0.4, 9).view(3, 3).t()
q, k = x @ Wq, x @ Wk
scores = q @ k.transpose(-2, -1) / 3 ** 0.5
print(scores.shape, scores[0, 0])
masked = scores.masked_fill(~adj, float("-inf"))
att = torch.softmax(masked, dim=-1)
print(att[0])
print(torch.isnan(att).any(-1))
att_clean = torch.nan_to_num(att, nan=0.0)
att_where = torch.where(torch.isnan(att), torch.zeros_like(att), att)
print(torch.equal(att_clean, att_where), att_clean.sum(-1))
out = att_clean @ x
print(out[1])

# self loops avoid empty rows; F.softmax with dtype
adj_sl = adj | torch.eye(4, dtype=torch.bool)
att2 = F.softmax(scores.masked_fill(~adj_sl, -1e9), dim=-1, dtype=torch.float64)
print(att2.dtype, att2[0, 3], att2.sum(-1).allclose(torch.ones(2, 4, dtype=torch.float64)))

# gradients do not leak through masked entries
xr = x.clone().requires_grad_()
s = (xr @ Wq) @ (xr @ Wk).transpose(-2, -1)
a = torch.softmax(s.masked_fill(~adj_sl, float("-inf")), dim=-1)
(a @ xr)[node_mask].sum().backward()
print(xr.grad[1], torch.isfinite(xr.grad).all())

# nn.MultiheadAttention: True in a boolean attn_mask means "not allowed"
mha = nn.MultiheadAttention(embed_dim=4, num_heads=2, batch_first=True)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.linspace(-1, 1, 48).view(12, 4))
    mha.in_proj_bias.zero_()
    mha.out_proj.weight.copy_(torch.eye(4))
    mha.out_proj.bias.zero_()
h = torch.cat([x, torch.ones(2, 4, 1)], dim=-1)
attn_mask = (~adj_sl).repeat_interleave(2, dim=0)
print(attn_mask.shape)
y, w = mha(h, h, h, attn_mask=attn_mask, key_padding_mask=~node_mask)
print(y.shape, w.shape)
print(w[1])
y2, w2 = mha(h, h, h, attn_mask=attn_mask, need_weights=True, average_attn_weights=False)
print(w2.shape, w2[0, 1])
try:
    mha(h, h, h, attn_mask=~adj_sl[0, :3])
except (RuntimeError, AssertionError) as e:
    print(type(e).__name__, e)
try:
    mha(h, h, h, attn_mask=(~adj_sl).float(), key_padding_mask=~node_mask)
except (RuntimeError, AssertionError) as e:
    print(type(e).__name__, e)
