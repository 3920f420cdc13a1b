# Checkpoint-related module hooks users write: get_extra_state/set_extra_state (the `_extra_state`
# key), state_dict(prefix=..., keep_vars=True), load_state_dict(strict=False) result fields,
# load_state_dict(assign=True), non-persistent buffers, and dtype conversion keeping int buffers.
import io
import torch
import torch.nn as nn


class Tokenizerish(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.vocab = list(vocab)
        self.embed = nn.Embedding(len(self.vocab), 3)
        self.register_buffer("counts", torch.zeros(len(self.vocab), dtype=torch.long))
        self.register_buffer("cache", torch.zeros(2), persistent=False)

    def get_extra_state(self):
        return {"vocab": self.vocab, "version": 2}

    def set_extra_state(self, state):
        print("  set_extra_state got", state)
        self.vocab = state["vocab"]

    def forward(self, ids):
        self.counts += torch.bincount(ids, minlength=len(self.vocab))
        return self.embed(ids)


m = Tokenizerish("abcd")
with torch.no_grad():
    m.embed.weight.copy_(torch.arange(12.0).view(4, 3) / 4)
m(torch.tensor([0, 1, 1, 3]))
sd = m.state_dict()
print(list(sd.keys()))
print(sd["_extra_state"], sd["counts"])

wrapper = nn.ModuleDict({"tok": m, "head": nn.Linear(3, 2)})
print(list(wrapper.state_dict().keys()))
print(list(m.state_dict(prefix="model.").keys()))
kv = m.state_dict(keep_vars=True)
print(type(kv["embed.weight"]).__name__, kv["embed.weight"].requires_grad, type(sd["embed.weight"]).__name__)

buf = io.BytesIO()
torch.save(sd, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=False)
m2 = Tokenizerish("wxyz")
res = m2.load_state_dict(loaded)
print(res, m2.vocab, m2.counts)

bad = dict(loaded)
bad.pop("counts")
bad["extra.weight"] = torch.ones(1)
res = m2.load_state_dict(bad, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    m2.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError", e)

shape_bad = dict(loaded)
shape_bad["embed.weight"] = torch.ones(5, 3)
try:
    m2.load_state_dict(shape_bad)
except RuntimeError as e:
    print("RuntimeError", e)

# assign=True keeps the loaded tensor objects (used with meta-device init)
m3 = Tokenizerish("abcd")
w = torch.full((4, 3), 7.0)
before = m3.embed.weight
m3.load_state_dict({**loaded, "embed.weight": w}, assign=True)
print(m3.embed.weight is before, type(m3.embed.weight).__name__, m3.embed.weight.requires_grad)
print(m3.embed.weight.data_ptr() == w.data_ptr())
m4 = Tokenizerish("abcd")
m4.load_state_dict({**loaded, "embed.weight": w})
print(m4.embed.weight.data_ptr() == w.data_ptr(), m4.embed.weight[0])

m.double()
print(m.embed.weight.dtype, m.counts.dtype, m.cache.dtype)
m.half()
print(m.embed.weight.dtype, m.counts.dtype, m.cache.dtype)
m.to(torch.float32)
print(m.embed.weight.dtype, m.counts.dtype, m.cache.dtype)
m.cache = None
print(list(m._buffers.keys()), [n for n, _ in m.named_buffers()])
