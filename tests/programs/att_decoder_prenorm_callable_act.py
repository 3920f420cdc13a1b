# A pre-norm (norm_first=True) decoder-only stack built from nn.TransformerDecoderLayer with a
# callable activation (F.gelu and an nn.Module instance), causal tgt_mask + tgt_is_causal,
# memory_key_padding_mask, state_dict keys, and a short training loop printing losses.
import torch
import torch.nn as nn
import torch.nn.functional as F


def det_init(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            n = torch.arange(p.numel(), dtype=torch.float32)
            if name.endswith("bias"):
                p.copy_((0.01 * torch.cos(n + i)).reshape(p.shape))
            elif "norm" in name:
                p.copy_((1.0 + 0.05 * torch.sin(n + i)).reshape(p.shape))
            else:
                p.copy_((0.2 * torch.sin(0.7 * n + i) / (p.shape[-1] ** 0.5)).reshape(p.shape))


class SquaredReLU(nn.Module):
    def forward(self, x):
        return F.relu(x) ** 2


d_model, nhead = 8, 2
layer_a = nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=16, dropout=0.0,
                                     activation=F.gelu, norm_first=True, batch_first=True)
layer_b = nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=16, dropout=0.0,
                                     activation=SquaredReLU(), norm_first=True, batch_first=True)
print(layer_b)
print(sorted(layer_a.state_dict().keys()))
dec = nn.TransformerDecoder(layer_a, num_layers=2, norm=nn.LayerNorm(d_model))
print(len(dec.layers), [k for k in dec.state_dict() if k.startswith("layers.1.")][:6])
det_init(dec)
det_init(layer_b)

B, T, S = 2, 6, 4
tgt = torch.sin(torch.arange(B * T * d_model, dtype=torch.float32) * 0.3).reshape(B, T, d_model)
mem = torch.cos(torch.arange(B * S * d_model, dtype=torch.float32) * 0.2).reshape(B, S, d_model)
causal = nn.Transformer.generate_square_subsequent_mask(T)
print(causal)
mem_pad = torch.tensor([[False, False, False, True], [False, False, False, False]])

out = dec(tgt, mem, tgt_mask=causal, tgt_is_causal=True, memory_key_padding_mask=mem_pad)
print(out.shape)
print(out[0, :2])
# causality: changing the last target step leaves earlier outputs unchanged
tgt2 = tgt.clone()
tgt2[:, -1] += 5.0
out2 = dec(tgt2, mem, tgt_mask=causal, memory_key_padding_mask=mem_pad)
print("prefix unchanged:", torch.allclose(out[:, :-1], out2[:, :-1], atol=1e-5))

yb = layer_b(tgt, mem, tgt_mask=causal)
print(yb[1, -1])

head = nn.Linear(d_model, 5)
with torch.no_grad():
    head.weight.copy_(torch.cos(torch.arange(40.0)).reshape(5, 8) * 0.3)
    head.bias.zero_()
labels = torch.tensor([[0, 1, 2, 3, 4, 0], [4, 3, 2, 1, 0, 4]])
params = list(dec.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=1e-2)
for step in range(8):
    opt.zero_grad()
    logits = head(dec(tgt, mem, tgt_mask=causal, memory_key_padding_mask=mem_pad))
    loss = F.cross_entropy(logits.reshape(-1, 5), labels.reshape(-1))
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print(dec.layers[0].self_attn.in_proj_weight.grad.shape,
      f"{dec.layers[0].linear1.weight.grad.norm().item():.4f}")
