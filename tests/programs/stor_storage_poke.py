# Old-style (PyTorch 1.x tutorials) storage manipulation: writing elements through
# tensor.storage(), fill_/copy_/clone on storages, conversions, and legacy type names.
import warnings
import torch

warnings.filterwarnings("ignore", category=UserWarning)
t = torch.arange(6.0).view(2, 3)
s = t.storage()
s[0] = 100.0
s[-1] = -1.0
print(t)
s[1:3] = 7.0
print(t, t._version)
print(s.type(), t.int().storage().type(), t.bool().storage().type(), t.double().storage().type())
print(torch.zeros(1, dtype=torch.complex64).storage().type(), torch.zeros(1, dtype=torch.uint8).storage().type())
c = s.clone()
c[0] = 0.0
print(t[0, 0].item(), c[0], c.size())
d = s.double()
print(d.dtype, d.tolist(), s.long().tolist(), s.bool().tolist())
s.fill_(2.5)
print(t)
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).storage()
s.copy_(src)
print(t)
try:
    s.copy_(torch.ones(2).storage())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    s[1:]
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    s[6]
except IndexError as e:
    print(type(e).__name__, e)
print(s[-6], s[5], s.is_shared(), s.is_cuda, s.is_sparse, s.cpu() is s)
col = t[:, 1]
col.storage()[4] = 40.0
print(col, col.storage().size())
half = t.half()
print(half.storage().element_size(), half.storage().nbytes(), half.storage().type())
print([round(v, 2) for v in half.storage().float().tolist()])
ints = torch.tensor([1, 2, 3], dtype=torch.int32).storage()
print(ints.tolist(), ints.double().tolist(), ints.byte().tolist(), ints.char().tolist())
print(ints.short().type(), ints.half().type(), ints.float().type(), ints.long().type())
