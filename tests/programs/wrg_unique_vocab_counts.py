# Vocabulary building and label statistics: unique with return_inverse/return_counts, dim=,
# unique_consecutive for run-length encoding, bincount with weights, histc and histogram.
import torch

tokens = torch.tensor([5, 3, 5, 9, 3, 3, 1, 9, 5, 5, 7])
vocab, inverse, counts = torch.unique(tokens, return_inverse=True, return_counts=True)
print(vocab, inverse, counts)
print(torch.unique(tokens, sorted=True))
u2 = tokens.unique(return_counts=True)
print(type(u2).__name__, u2)
print("most frequent", vocab[counts.argmax()].item())

rows = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9], [3, 4], [1, 2]])
urows, inv, cnt = torch.unique(rows, dim=0, return_inverse=True, return_counts=True)
print(urows, inv, cnt)
cols = torch.tensor([[2, 1, 2, 0], [5, 4, 5, 6]])
print(torch.unique(cols, dim=1, return_inverse=True))
print(torch.unique(torch.tensor([[2.5, 1.0], [0.5, 2.5]]), return_inverse=True))

# run-length encoding
seq = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1, 4])
vals, run_lengths = torch.unique_consecutive(seq, return_counts=True)
print("rle", vals, run_lengths)
print(torch.unique_consecutive(seq, return_inverse=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3], [1, 1]]), dim=0, return_counts=True))
print(torch.repeat_interleave(vals, run_lengths))

# bincount / class weights
labels = torch.tensor([0, 2, 2, 1, 2, 0, 4])
bc = torch.bincount(labels)
print("bincount", bc, bc.dtype)
print(torch.bincount(labels, minlength=7))
w = torch.linspace(0.1, 0.7, 7)
print(torch.bincount(labels, weights=w))
print(torch.bincount(labels, weights=w.double()).dtype)
print(torch.bincount(torch.tensor([], dtype=torch.long), minlength=3))
class_weights = bc.sum() / (len(bc) * bc.clamp(min=1).float())
print("class weights", class_weights)

# histograms
x = torch.sin(torch.arange(20, dtype=torch.float32) * 0.9)
print(torch.histc(x, bins=5, min=-1, max=1))
print(torch.histc(x, bins=4))
h = torch.histogram(x, bins=4)
print(h.hist, h.bin_edges)
h2 = torch.histogram(x, bins=torch.tensor([-1.0, -0.2, 0.0, 0.5, 1.0]), density=True)
print(h2)
h3 = torch.histogram(x, bins=3, range=(0.0, 1.0), weight=torch.arange(20.0))
print(h3.hist)
try:
    torch.bincount(torch.tensor([1, -1]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bincount(torch.tensor([[1, 2]]))
except RuntimeError as e:
    print(type(e).__name__, e)
