# Feature extraction from a TransformerEncoder with forward hooks: which submodule hooks fire in
# train mode vs eval+no_grad (the fused fast path skips self_attn / linear submodules), and the
# common trick of wrapping self_attn.forward to force need_weights=True to grab attention maps.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
with torch.no_grad():
    for i, (n, p) in enumerate(enc.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.11 + i).view_as(p) * 0.3)
        if "norm" in n and n.endswith("weight"):
            p.fill_(1.0)

fired = []
handles = []
for name, mod in enc.named_modules():
    if name.count(".") == 2 or name.endswith("self_attn"):
        handles.append(mod.register_forward_hook(lambda m, i, o, name=name: fired.append(name)))
print(sorted({type(m).__name__ for n, m in enc.named_modules() if n}))

x = torch.cos(torch.arange(3 * 4 * 8, dtype=torch.float32) * 0.05).view(3, 4, 8)
enc.train()
out_train = enc(x)
print("train:", len(fired), fired[:7])
fired.clear()
enc.eval()
with torch.no_grad():
    out_eval = enc(x)
print("eval/no_grad:", len(fired), fired)
fired.clear()
out_eval2 = enc(x)
print("eval/grad:", len(fired))
print(torch.allclose(out_train, out_eval, atol=1e-5), torch.allclose(out_eval, out_eval2, atol=1e-5))
print(out_eval[0, :2])
for h in handles:
    h.remove()

attn_maps = {}


def patch(name, attn):
    orig = attn.forward

    def forward(*args, **kwargs):
        kwargs["need_weights"] = True
        kwargs["average_attn_weights"] = False
        out, w = orig(*args, **kwargs)
        attn_maps[name] = w.detach()
        return out, w
    attn.forward = forward


for i, l in enumerate(enc.layers):
    patch(f"layer{i}", l.self_attn)
mask = torch.tensor([[False, False, False, True]] * 3)
enc.eval()
out = enc(x, src_key_padding_mask=mask)
print(sorted(attn_maps), attn_maps["layer0"].shape)
print(attn_maps["layer1"][0, 1])
print(attn_maps["layer0"][..., 3].abs().max().item())
print(out[1, 0])
