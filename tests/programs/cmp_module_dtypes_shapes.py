# A compiled text model called like a notebook does: different batch sizes and sequence lengths,
# token ids as int64 and int32, a bool padding mask, model.double() after compiling, and
# requires_grad_(False) on the embedding after the first call.
import torch
import torch.nn as nn


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=10, dim=4, classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.out = nn.Linear(dim, classes)
        with torch.no_grad():
            self.emb.weight.copy_(torch.arange(vocab * dim, dtype=torch.float32).view(vocab, dim).sin())
            self.emb.weight[0].zero_()
            self.out.weight.copy_(torch.tensor([[0.5, -0.5, 1.0, 0.0], [-1.0, 0.25, 0.5, 2.0]]))
            self.out.bias.copy_(torch.tensor([0.1, -0.1]))

    def forward(self, ids, mask=None):
        h = self.emb(ids)
        if mask is not None:
            h = h.masked_fill(~mask[..., None], 0.0)
            h = h.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        else:
            h = h.mean(1)
        return self.out(h)


model = BagOfEmbeddings()
cmodel = torch.compile(model, dynamic=None)

ids = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
mask = ids != 0
print(cmodel(ids, mask))
print(cmodel(ids).detach())  # (tapegrad: padding_idx's backward runs eagerly)
for b, t in ((1, 4), (3, 2), (2, 6)):
    batch = (torch.arange(b * t).view(b, t) * 3) % 10
    y = cmodel(batch, batch != 0)
    print((b, t), y.shape, y[0])
y32 = cmodel(ids.int(), mask)
print(y32.dtype, torch.allclose(y32, cmodel(ids, mask)))

loss = cmodel(ids, mask).logsumexp(-1).sum()
loss.backward()
print(model.emb.weight.grad[:6])
print(model.out.bias.grad)

model.emb.requires_grad_(False)
model.zero_grad()
out = cmodel(ids, mask)
out.sum().backward()
print(model.emb.weight.grad, model.out.weight.grad)

model.double()
y64 = cmodel(ids, mask)
print(y64.dtype, y64)
try:
    cmodel(torch.tensor([[1.5, 2.0]]))
except RuntimeError as e:
    print(isinstance(e, RuntimeError), "Long" in str(e) or "Int" in str(e))
