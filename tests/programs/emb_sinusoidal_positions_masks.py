# Transformer input pipeline: vocab -> padded ids via pad_sequence, key-padding masks from
# lengths, the sinusoidal positional table (arange/exp/sin/cos) as a buffer plus a learned one.
import math
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

sentences = ["hello world", "a b c d e", "hello", "world of words"]
specials = ["<pad>", "<unk>", "<bos>"]
vocab = specials + sorted({w for s in sentences for w in s.split()})
stoi = {w: i for i, w in enumerate(vocab)}
seqs = [torch.tensor([stoi["<bos>"]] + [stoi.get(w, 1) for w in s.split()]) for s in sentences]
lengths = torch.tensor([len(s) for s in seqs])
ids = pad_sequence(seqs, batch_first=True, padding_value=stoi["<pad>"])
print(ids)
print(lengths)

mask = torch.arange(ids.size(1))[None, :] >= lengths[:, None]
print(mask)
print(torch.equal(mask, ids == 0))


class SinusoidalPE(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


d = 6
tok = nn.Embedding(len(vocab), d, padding_idx=0)
learned = nn.Embedding(16, d)
with torch.no_grad():
    tok.weight.copy_(torch.sin(torch.arange(len(vocab) * d, dtype=torch.float32)).view(-1, d) * 0.5)
    tok.weight[0].zero_()
    learned.weight.copy_(torch.linspace(-0.2, 0.2, 16 * d).view(16, d))
pe = SinusoidalPE(d)
print(pe.pe[:3])
print(pe.pe.shape, list(pe.state_dict().keys()), [n for n, _ in pe.named_buffers()])

x = tok(ids) * math.sqrt(d)
x_sin = pe(x)
positions = torch.arange(ids.size(1)).expand_as(ids)
x_learned = x + learned(positions)
print(x_sin.shape, x_learned.shape)
print(x_sin[1, :2])
print(x_learned[2, :, 0])

# masked mean pooling that ignores padding
keep = (~mask).unsqueeze(-1).float()
pooled = (x_sin * keep).sum(1) / keep.sum(1)
print(pooled)
loss = pooled.pow(2).sum() + x_learned.masked_fill(mask.unsqueeze(-1), 0.0).pow(2).mean()
loss.backward()
print(tok.weight.grad[0], tok.weight.grad.abs().sum(1))
print(learned.weight.grad.abs().sum(1).nonzero().flatten())

# dot-product similarity of positions decays with distance
sim = pe.pe[:8] @ pe.pe[:8].T
print(sim[0].round(decimals=3))

# attention-style additive mask
attn = torch.zeros(ids.shape).masked_fill(mask, float("-inf"))
print(attn.softmax(-1)[2])
