# The PackedSequence API as people poke at it when first batching variable-length sequences:
# pack_sequence(enforce_sorted=False) and its four fields, pad_sequence (batch_first,
# padding_value, padding_side), pack_padded_sequence / pad_packed_sequence round trips with
# total_length, unpack_sequence / unpad_sequence, gradients through packing, and the errors
# for unsorted lengths, zero lengths, too-short total_length and mismatched trailing dims.
import torch
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence, unpack_sequence, unpad_sequence)

seqs = [torch.arange(1., 4.), torch.arange(1., 6.), torch.arange(1., 3.)]
packed = pack_sequence(seqs, enforce_sorted=False)
print(packed)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, packed.data.dtype)
print(type(packed).__name__, packed._fields, isinstance(packed, tuple), len(packed))
data, batch_sizes, *_ = packed
print(data.shape, batch_sizes.dtype)

padded = pad_sequence(seqs, batch_first=True, padding_value=-1)
print(padded)
print(pad_sequence(seqs).shape)
print(pad_sequence([torch.ones(2), torch.ones(4)], batch_first=True, padding_side="left"))
lengths = torch.tensor([len(s) for s in seqs])
pk = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(pk.data, torch.equal(pk.data, packed.data))
out, out_lengths = pad_packed_sequence(pk, batch_first=True, padding_value=9, total_length=7)
print(out, out_lengths)
print(unpack_sequence(packed))
print(unpad_sequence(padded, lengths, batch_first=True))

# Feature dimensions ride along; gradients flow back only into the real time steps.
x = torch.linspace(-1, 1, 30).reshape(3, 5, 2).requires_grad_()
pk2 = pack_padded_sequence(x, [5, 3, 2], batch_first=True)
print(pk2.data.shape, pk2.batch_sizes, pk2.sorted_indices, pk2.data.grad_fn.name())
(pk2.data * torch.arange(1., 3.)).sum().backward()
print(x.grad[:, :, 1])
print(pk2.is_cuda, pk2.to(torch.float64).data.dtype, pk2.double().data.dtype)

# Round trip through a time-major layout.
tm = pad_sequence([torch.ones(3, 2), 2 * torch.ones(1, 2)])
back, lens = pad_packed_sequence(pack_padded_sequence(tm, [3, 1]))
print(tm.shape, back.shape, lens, torch.equal(back, tm))

for name, fn in [
    ("unsorted", lambda: pack_padded_sequence(padded, lengths, batch_first=True)),
    ("zero length", lambda: pack_padded_sequence(x, [5, 0, 2], batch_first=True, enforce_sorted=False)),
    ("total_length", lambda: pad_packed_sequence(pk, total_length=3)),
    ("trailing dims", lambda: pad_sequence([torch.ones(2, 3), torch.ones(2, 4)])),
]:
    try:
        fn()
    except Exception as e:
        print(name, type(e).__name__, e)
