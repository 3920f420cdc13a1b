# nn.utils.rnn.pad_sequence on variable-length sequences, lengths and a padding mask.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
print(pad_sequence(seqs))
print(pad_sequence(seqs, batch_first=True, padding_value=-1.0))
feats = [torch.ones(2, 3), torch.full((4, 3), 2.0)]
p = pad_sequence(feats, batch_first=True)
print(p.shape, p[0, :, 0])

lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence([s.unsqueeze(-1) for s in seqs], batch_first=True)
print(padded.shape, lengths)
mask = torch.arange(padded.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
print(mask)
print((padded.squeeze(-1) * mask).sum(1) / lengths)
print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True, padding_value=9).dtype)
