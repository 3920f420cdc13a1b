# Vocabulary tricks without a tokenizer library: torch.unique(return_inverse, return_counts) to
# build ids, frequency-sorted remapping, hashing OOV words into buckets, padding masks, and
# pack_padded_sequence of embedded batches for an LSTM (lengths sorted or not).
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

raw = torch.tensor([17, 3, 17, 42, 3, 17, 99, 5, 42, 17])
uniq, inverse, counts = torch.unique(raw, return_inverse=True, return_counts=True)
print(uniq, inverse, counts)
order = counts.argsort(descending=True, stable=True)
rank = torch.empty_like(order)
rank[order] = torch.arange(len(order))
freq_ids = rank[inverse] + 2           # 0 = pad, 1 = unk
print(freq_ids)
print(torch.bincount(freq_ids))

words = ["cat", "dog", "cat", "emu", "yak", "cat"]
known = {"cat": 2, "dog": 3}
n_buckets = 4
def word_id(w):
    if w in known:
        return known[w]
    return 4 + sum(ord(c) for c in w) % n_buckets
ids = torch.tensor([word_id(w) for w in words])
print(ids)

seqs = [ids[:4], ids[4:], ids[2:5]]
lengths = torch.tensor([len(s) for s in seqs])
batch = pad_sequence(seqs, batch_first=True)
print(batch, lengths)
mask = batch.ne(0)
print(mask.sum(1), mask.float().mean())

emb = nn.Embedding(4 + n_buckets, 3, padding_idx=0)
lstm = nn.LSTM(3, 2, batch_first=True)
with torch.no_grad():
    emb.weight.copy_(torch.cos(torch.arange(24.0) * 0.3).view(8, 3))
    emb.weight[0].zero_()
    for name, p in lstm.named_parameters():
        p.copy_(0.1 * torch.sin(torch.arange(p.numel(), dtype=torch.float32)).view_as(p))

x = emb(batch)
packed = pack_packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, (h, c) = lstm(packed)
unpacked, out_lens = pad_packed_sequence(out, batch_first=True, total_length=5)
print(unpacked.shape, out_lens)
print(unpacked.round(decimals=4))
print(h.squeeze(0).round(decimals=4))
last = unpacked[torch.arange(3), lengths - 1]
print(torch.allclose(last, h.squeeze(0), atol=1e-6))
h.sum().backward()
print(emb.weight.grad.abs().sum(1).round(decimals=4))
try:
    pack_padded_sequence(x, lengths, batch_first=True)
except RuntimeError as e:
    print(type(e).__name__, e)
