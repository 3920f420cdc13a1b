# Checkpoints of NLP models whose vocabulary changed: load_state_dict size-mismatch errors,
# strict=False reports, copying the overlapping rows, saving/loading embeddings through
# io.BytesIO, and sparse=True / padding_idx surviving a round trip.
import io
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, d=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(8, d)
        self.proj = nn.Linear(d, 2)

    def forward(self, ids):
        p = torch.arange(ids.size(1)).unsqueeze(0)
        return self.proj(self.tok(ids) + self.pos(p)).mean(1)


old = Encoder(6)
with torch.no_grad():
    for i, p in enumerate(old.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))
    old.tok.weight[0].zero_()
sd = old.state_dict()
print({k: tuple(v.shape) for k, v in sd.items()})

new = Encoder(9)
try:
    new.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)

filtered = {k: v for k, v in sd.items() if k != "tok.weight"}
res = new.load_state_dict(filtered, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(res)
with torch.no_grad():
    new.tok.weight[: sd["tok.weight"].size(0)] = sd["tok.weight"]
    new.tok.weight[6:] = sd["tok.weight"][1:].mean(0)
ids = torch.tensor([[1, 2, 0], [7, 8, 5]])
print(new(ids).round(decimals=4))
print(old(ids[:1]).round(decimals=4), new(ids[:1]).round(decimals=4))

extra = dict(sd)
extra["tok.bias"] = torch.zeros(3)
res = old.load_state_dict(extra, strict=False)
print(res.unexpected_keys)
try:
    old.load_state_dict(extra)
except RuntimeError as e:
    print(type(e).__name__, e)

buf = io.BytesIO()
sparse_emb = nn.Embedding(5, 2, padding_idx=4, sparse=True, max_norm=3.0)
with torch.no_grad():
    sparse_emb.weight.copy_(torch.arange(10.0).view(5, 2))
torch.save(sparse_emb, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=False)
print(loaded, torch.equal(loaded.weight, sparse_emb.weight))
loaded(torch.tensor([1, 4, 1])).sum().backward()
print(loaded.weight.grad.coalesce())

buf = io.BytesIO()
torch.save({"emb": old.tok.weight.detach(), "itos": ["<pad>", "a", "b"]}, buf)
buf.seek(0)
ck = torch.load(buf)
print(ck["itos"], ck["emb"].shape, ck["emb"].requires_grad)
pre = nn.Embedding.from_pretrained(ck["emb"], padding_idx=0, freeze=False)
print(pre, pre.weight.requires_grad)
