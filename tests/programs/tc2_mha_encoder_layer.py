# nn.MultiheadAttention and nn.TransformerEncoderLayer (batch_first, norm_first) compiled as users
# do for a text classifier: key_padding_mask for padded tokens, a causal attn_mask, averaged attention
# weights returned by MHA, and masked mean pooling; checked against the eager modules.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill(m, off):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.31 + off + i).view_as(p) * 0.3
                    + (1.0 if p.dim() == 1 and "norm" in n_of[id(p)] and "weight" in n_of[id(p)] else 0.0))


mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0,
                                   batch_first=True, norm_first=True)
n_of = {id(p): n for m in (mha, layer) for n, p in m.named_parameters()}
fill(mha, 0.0)
fill(layer, 1.0)

x = torch.cos(torch.arange(2 * 5 * 8, dtype=torch.float32).view(2, 5, 8) * 0.21)
pad = torch.tensor([[False] * 5, [False, False, False, True, True]])  # True = padding
causal = nn.Transformer.generate_square_subsequent_mask(5)


@torch.compile
def attend(x, pad):
    out, w = mha(x, x, x, key_padding_mask=pad, need_weights=True, average_attn_weights=True)
    return out, w


out, w = attend(x, pad)
ref, wref = mha(x, x, x, key_padding_mask=pad)
print("mha", out.shape, w.shape, torch.allclose(out, ref, atol=1e-5), torch.allclose(w, wref, atol=1e-6))
print("weights on padding", w[1, :, 3:].abs().max().item())
print(torch.round(w[1, 0], decimals=4))

clayer = torch.compile(layer)
layer.train()
y = clayer(x, src_mask=causal, src_key_padding_mask=pad)
print("layer", y.shape, torch.allclose(y, layer(x, src_mask=causal, src_key_padding_mask=pad), atol=1e-5))
print(torch.round(y[1, 2], decimals=4))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = layer
        self.head = nn.Linear(8, 2)

    def forward(self, x, pad):
        h = self.layer(x, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


clf = Classifier()
nn.init.constant_(clf.head.bias, 0.1)
with torch.no_grad():
    clf.head.weight.copy_(torch.linspace(-0.5, 0.5, 16).view(2, 8))
cclf = torch.compile(clf)
labels = torch.tensor([0, 1])
opt = torch.optim.Adam(clf.parameters(), lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(cclf(x, pad), labels)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
clf.eval()
with torch.no_grad():
    logits = cclf(x, pad)
print("eval logits", torch.round(logits, decimals=4), logits.argmax(1).tolist())
