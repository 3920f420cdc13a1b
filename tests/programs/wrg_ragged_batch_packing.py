# Ragged batches in NLP preprocessing: pad_sequence (batch_first, padding_value, padding_side),
# pack_padded_sequence / pad_packed_sequence around an LSTM, pack_sequence, split/chunk/tensor_split.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence, unpad_sequence, unpack_sequence

seqs = [torch.arange(1, 4), torch.arange(4, 9), torch.arange(9, 11)]
lengths = torch.tensor([len(s) for s in seqs])
print(pad_sequence(seqs))
print(pad_sequence(seqs, batch_first=True, padding_value=-1))
print(pad_sequence(seqs, batch_first=True, padding_side="left"))
padded = pad_sequence(seqs, batch_first=True)
mask = torch.arange(padded.size(1))[None, :] < lengths[:, None]
print(mask)
print(unpad_sequence(padded, lengths, batch_first=True))

emb = nn.Embedding(12, 3, padding_idx=0)
lstm = nn.LSTM(3, 2, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(list(emb.parameters()) + list(lstm.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view_as(p) * 0.5)
    emb.weight[0].zero_()
x = emb(padded)
packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape)
out, (h, c) = lstm(packed)
unpacked, out_lens = pad_packed_sequence(out, batch_first=True, total_length=6)
print(unpacked.shape, out_lens)
print(torch.round(unpacked, decimals=4))
print(torch.round(h, decimals=4))
# last valid timestep gather
last = unpacked[torch.arange(3), out_lens - 1]
print(torch.allclose(last, h[0], atol=1e-6))

ps = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])])
print(ps)
print(unpack_sequence(ps))
try:
    pack_sequence([torch.tensor([1.0]), torch.tensor([4.0, 5.0])])
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    pack_padded_sequence(torch.zeros(2, 3), torch.tensor([0, 2]), batch_first=True, enforce_sorted=False)
except RuntimeError as e:
    print(type(e).__name__, e)

# chunking and splitting
t = torch.arange(10)
print(t.split(3))
print(t.split([2, 3, 5]))
print(t.chunk(4))
print(torch.arange(5).chunk(3))
print(torch.tensor_split(t, 3))
print(torch.tensor_split(t, [2, 7]))
print(torch.tensor_split(t, torch.tensor([1, 4, 8])))
print(torch.arange(12).view(3, 4).tensor_split(3, dim=1))
print(torch.arange(12).view(3, 4).hsplit(2))
print(torch.arange(12).view(4, 3).vsplit([1, 3]))
try:
    t.split([2, 3])
except RuntimeError as e:
    print(type(e).__name__, e)
# split lengths from a tensor of lengths then pad
flat = torch.arange(10.0)
parts = flat.split(torch.tensor([4, 1, 5]).tolist())
print(pad_sequence(parts, batch_first=True, padding_value=float("nan")))
