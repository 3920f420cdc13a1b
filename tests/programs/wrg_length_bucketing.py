# Bucketing a ragged dataset by length before padding (as NLP data loaders do): sort lengths
# descending (ties everywhere), reorder with the indices, batch into buckets, pad and pack, then
# restore the original order with the inverse permutation; integer label ranking with argsort.
import torch
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

lengths = torch.tensor([3, 5, 2, 5, 4, 3, 3, 1, 5, 2, 4, 4, 3, 2, 5, 1, 3, 4, 2, 5, 3, 1, 4, 2])
sequences = [torch.arange(int(n)) + 10 * i for i, n in enumerate(lengths)]
print("n sequences", len(sequences))

sorted_lengths, order = lengths.sort(descending=True)
print("sorted lengths", sorted_lengths)
print("order", order)
inverse = torch.empty_like(order)
inverse[order] = torch.arange(order.numel())
print("inverse", inverse)
print(torch.equal(order.argsort(), inverse))

batch_size = 6
for b, idx in enumerate(order.split(batch_size)):
    batch = pad_sequence([sequences[i] for i in idx], batch_first=True, padding_value=-1)
    packed = pack_padded_sequence(batch, lengths[idx], batch_first=True)
    print(b, idx.tolist(), tuple(batch.shape), packed.batch_sizes.tolist())
    print(batch[:2])
    restored, out_lens = pad_packed_sequence(packed, batch_first=True, padding_value=-1)
    print(torch.equal(restored, batch), out_lens.tolist())

# ascending sort, argsort, and ranks of integer labels
labels = torch.tensor([2, 0, 1, 2, 1, 0, 0, 2, 1, 1, 2, 0, 1, 0, 2, 2, 1, 0, 1, 2])
print("argsort", labels.argsort())
print("argsort desc", torch.argsort(labels, descending=True))
print("sorted", torch.sort(labels))
print("stable", labels.argsort(stable=True))
ranks = labels.argsort().argsort()
print("ranks", ranks)
# group samples by label: the indices in each group as produced by argsort
counts = torch.bincount(labels)
groups = labels.argsort(stable=True).split(counts.tolist())
for c, g in enumerate(groups):
    print("label", c, g.tolist())
# 2-d: sort each row of scores with ties (e.g., rounded predictions)
scores = (torch.arange(48).view(2, 24) * 7 % 5).float() / 4
print(scores.sort(dim=1, descending=True))
print(torch.msort(scores.t())[:5])
print(scores.t().argsort(dim=0)[:, 0])
