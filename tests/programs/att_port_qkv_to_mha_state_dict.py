# Porting a hand-written attention (separate q/k/v nn.Linear, as in many repos) into
# nn.MultiheadAttention by packing in_proj_weight/in_proj_bias in a state_dict, checking outputs
# match, and the load_state_dict errors users hit (missing/unexpected keys, size mismatch).
import torch
import torch.nn as nn
import torch.nn.functional as F


class MyAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        h = self.heads

        def split(t):
            return t.view(B, T, h, C // h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = (q @ k.transpose(-2, -1)) / (C // h) ** 0.5
        if mask is not None:
            att = att.masked_fill(mask, float("-inf"))
        att = att.softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(y), att.mean(1)


dim, heads = 8, 2
mine = MyAttention(dim, heads)
with torch.no_grad():
    for i, (n, p) in enumerate(mine.named_parameters()):
        p.copy_((0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i)).reshape(p.shape))

sd = mine.state_dict()
print(list(sd.keys()))
new_sd = {
    "in_proj_weight": torch.cat([sd["q.weight"], sd["k.weight"], sd["v.weight"]], 0),
    "in_proj_bias": torch.cat([sd["q.bias"], sd["k.bias"], sd["v.bias"]], 0),
    "out_proj.weight": sd["proj.weight"],
    "out_proj.bias": sd["proj.bias"],
}
mha = nn.MultiheadAttention(dim, heads, batch_first=True)
print(mha.load_state_dict(new_sd))

x = torch.cos(torch.arange(2 * 5 * dim, dtype=torch.float32) * 0.23).reshape(2, 5, dim)
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
y1, a1 = mine(x, causal)
y2, a2 = mha(x, x, x, attn_mask=causal)
print("outputs match:", torch.allclose(y1, y2, atol=1e-6), "weights match:", torch.allclose(a1, a2, atol=1e-6))
print(y2[1, :2])

# gradients agree between the two implementations
y1.sum().backward()
y2.sum().backward()
g_packed = mha.in_proj_weight.grad
print(torch.allclose(g_packed[:dim], mine.q.weight.grad, atol=1e-5),
      torch.allclose(g_packed[2 * dim:], mine.v.weight.grad, atol=1e-5))
print(F.normalize(g_packed[dim:2 * dim].flatten(), dim=0)[:4])

# loading the wrong dict
res = mha.load_state_dict(sd, strict=False)
print(sorted(res.missing_keys), sorted(res.unexpected_keys))
try:
    mha.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print(len(str(e).splitlines()))

cross = nn.MultiheadAttention(dim, heads, kdim=4, vdim=4, batch_first=True)
print(list(cross.state_dict().keys()))
try:
    cross.load_state_dict(new_sd)
except RuntimeError as e:
    print(str(e).replace("\t", "  "))

# shape mismatch
bad = dict(new_sd)
bad["in_proj_weight"] = bad["in_proj_weight"][:16]
try:
    mha.load_state_dict(bad)
except RuntimeError as e:
    print(str(e).replace("\t", "  "))

