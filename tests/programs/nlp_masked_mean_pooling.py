# Padded batch text classification: pad_sequence, lengths, mask = arange < lengths[:, None],
# mean-pooled embeddings using the mask, plus attention pooling with masked_fill(-inf) + softmax.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

seqs = [torch.tensor([3, 5, 2]), torch.tensor([4, 1]), torch.tensor([6, 2, 2, 7]), torch.tensor([1])]
lengths = torch.tensor([len(s) for s in seqs])
batch = pad_sequence(seqs, batch_first=True, padding_value=0)
print(batch, lengths)
mask = torch.arange(batch.size(1))[None, :] < lengths[:, None]
print(mask, mask.dtype)


class Pooler(nn.Module):
    def __init__(self, V=8, D=4, C=3):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=0)
        self.att = nn.Linear(D, 1, bias=False)
        self.out = nn.Linear(2 * D, C)

    def forward(self, x, mask):
        e = self.emb(x)
        m = mask.unsqueeze(-1).float()
        mean = (e * m).sum(1) / m.sum(1).clamp(min=1)
        scores = self.att(e).squeeze(-1).masked_fill(~mask, float("-inf"))
        alpha = F.softmax(scores, dim=-1)
        attn = torch.bmm(alpha.unsqueeze(1), e).squeeze(1)
        return self.out(torch.cat([mean, attn], dim=-1)), alpha


model = Pooler()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.8, 0.8, p.numel()).reshape(p.shape) * (1 + 0.2 * i))
    model.emb.weight[0].zero_()
logits, alpha = model(batch, mask)
print(alpha)
print(logits)
y = torch.tensor([0, 2, 1, 2])
loss = F.cross_entropy(logits, y)
loss.backward()
print(f"{loss.item():.5f}", loss.grad_fn.name())
print(model.emb.weight.grad)
print(model.att.weight.grad)

# masked max-pooling and the all-masked row gotcha
e = model.emb(batch).detach()
maxed = e.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(dim=1)
print(maxed.values, maxed.indices)
allmasked = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).masked_fill(torch.tensor([[True, True], [False, True]]), float("-inf"))
print(F.softmax(allmasked, dim=-1))
print(torch.nan_to_num(F.softmax(allmasked, dim=-1), nan=0.0))
print(mask.sum(1), mask.float().mean(1), (~mask).any(1))
