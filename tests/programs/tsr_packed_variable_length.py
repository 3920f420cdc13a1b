# Variable-length sensor sequences: pad_sequence, pack_padded_sequence with enforce_sorted=False,
# a bidirectional 2-layer LSTM over the packed batch, pad_packed_sequence with total_length,
# masked mean pooling, and gathering each sequence's last valid output.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence

seqs = [torch.sin(torch.arange(n, dtype=torch.float32) * 0.5 + k).unsqueeze(-1).repeat(1, 2) * torch.tensor([1.0, -0.5])
        for k, n in enumerate([4, 7, 2, 5])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
print(padded.shape, lengths)
print(pad_sequence(seqs, padding_value=-1.0, padding_side="left")[:, 2, 0])

lstm = nn.LSTM(2, 3, num_layers=2, batch_first=True, bidirectional=True)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape)
out_packed, (h, c) = lstm(packed)
print(type(out_packed).__name__, h.shape, c.shape)
out, out_lens = pad_packed_sequence(out_packed, batch_first=True, total_length=8)
print(out.shape, out_lens)
print(out[2, :3])

mask = (torch.arange(8).unsqueeze(0) < out_lens.unsqueeze(1)).unsqueeze(-1)
pooled = (out * mask).sum(1) / out_lens.unsqueeze(1)
print(pooled)
idx = (out_lens - 1).view(-1, 1, 1).expand(-1, 1, out.size(2))
last = out.gather(1, idx).squeeze(1)
print(torch.allclose(last[:, :3], h[-2], atol=1e-6), torch.allclose(out[:, 0, 3:], h[-1], atol=1e-6))

head = nn.Linear(6, 1)
with torch.no_grad():
    head.weight.copy_(torch.linspace(-1, 1, 6).reshape(1, 6))
    head.bias.fill_(0.1)
loss = head(pooled).pow(2).mean()
loss.backward()
print(f"{loss.item():.6f}", lstm.weight_hh_l1_reverse.grad.abs().sum().item() > 0)
print(lstm.weight_ih_l0.grad[:2])

# the same thing unpacked is different (padding leaks in) except for the longest sequence
out_unpacked, _ = lstm(padded)
print(torch.allclose(out_unpacked[1, :, :3], out[1, :7, :3], atol=1e-6), torch.allclose(out_unpacked[0, :4, 3:], out[0, :4, 3:], atol=1e-6))

ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.batch_sizes.tolist(), ps.data[:3])
back = unpad_sequence(padded, lengths, batch_first=True)
print([tuple(b.shape) for b in back], all(torch.equal(a, b) for a, b in zip(back, seqs)))
try:
    pack_padded_sequence(padded, lengths, batch_first=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    pack_padded_sequence(padded, torch.tensor([4, 7, 0, 5]), batch_first=True, enforce_sorted=False)
except Exception as e:
    print(type(e).__name__, e)
gru = nn.GRU(2, 3)
o, hn = gru(pack_sequence(sorted(seqs, key=len, reverse=True)), torch.zeros(1, 4, 3))
print(hn.shape, o.data.shape)
