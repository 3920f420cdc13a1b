# Variable-length batches through a projected LSTM and a bidirectional GRU with initial states:
# pack_sequence(enforce_sorted=False) (h0 is permuted internally), pad_packed_sequence,
# unpad_sequence / unpack_sequence, pad_sequence(padding_side="left"), and the shape errors.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)


def det(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view(p.shape) * 0.4)
    return m


seqs = [torch.sin(torch.arange(n * 3, dtype=torch.float32)).view(n, 3) for n in (2, 4, 3)]
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed)
lstm = det(nn.LSTM(3, 4, num_layers=2, batch_first=True, proj_size=2))
print(lstm, [w.shape for w in lstm.all_weights[0]], sep="\n")
h0 = torch.arange(2 * 3 * 2, dtype=torch.float32).view(2, 3, 2) * 0.1
c0 = torch.arange(2 * 3 * 4, dtype=torch.float32).view(2, 3, 4) * 0.05
out, (h, c) = lstm(packed, (h0, c0))
print(out.data.shape, h, c[1], sep="\n")
padded, lens = pad_packed_sequence(out, batch_first=True)
print(padded[0], lens)
# the final hidden state of each sequence is its output at its last real step
last = padded[torch.arange(3), lens - 1]
print(torch.allclose(last, h[-1]))
print(unpad_sequence(padded, lens, batch_first=True)[2])
print([t.shape for t in unpack_sequence(out)])
seq_first, _ = pad_packed_sequence(out)
print(seq_first.shape, [t.shape for t in unpad_sequence(seq_first, lens)], seq_first.shape)
print(pad_sequence(seqs, batch_first=True, padding_value=-1.0, padding_side="left")[0])
print(pad_sequence(seqs).shape)

gru = det(nn.GRU(3, 4, bidirectional=True))
out, hn = gru(packed, torch.ones(2, 3, 4) * 0.1)
print(hn[:, 0], out.sorted_indices, out.unsorted_indices)
one_by_one = [gru(s.unsqueeze(1), torch.ones(2, 1, 4) * 0.1)[1][:, 0] for s in seqs]
print(all(torch.allclose(a, hn[:, i], atol=1e-6) for i, a in enumerate(one_by_one)))
print(packed.to(torch.float64).data.dtype, packed.is_cuda, type(packed).__name__, packed._fields)

for name, fn in [
    ("bad side", lambda: pad_sequence(seqs, padding_side="middle")),
    ("few hidden", lambda: lstm(packed, (h0[:1], c0))),
    ("input size", lambda: lstm(torch.ones(2, 5, 4))),
    ("hidden size", lambda: lstm(torch.ones(2, 5, 3), (torch.zeros(2, 2, 4), torch.zeros(2, 2, 4)))),
    ("gru hidden", lambda: gru(torch.ones(5, 2, 3), torch.zeros(1, 2, 4))),
    ("2-D lengths", lambda: pack_padded_sequence(pad_sequence(seqs), torch.tensor([[4], [3], [2]]))),
    ("too many lengths", lambda: pack_padded_sequence(pad_sequence(seqs), [4, 3, 2, 1])),
]:
    try:
        fn()
    except RuntimeError as e:
        print(name, type(e).__name__, e)
