# Tutorial "does this op copy?": compare data_ptr()/untyped_storage().data_ptr() and
# storage_offset() before and after common ops to see which return views.
import torch

x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
base_ptr = x.untyped_storage().data_ptr()

def same_storage(t):
    return t.untyped_storage().data_ptr() == base_ptr

ops = {
    "view": lambda t: t.view(4, 3),
    "reshape": lambda t: t.reshape(2, 6),
    "transpose": lambda t: t.transpose(0, 1),
    "t": lambda t: t.t(),
    "T_reshape": lambda t: t.t().reshape(-1),
    "permute": lambda t: t.permute(1, 0),
    "narrow": lambda t: t.narrow(1, 1, 2),
    "select": lambda t: t.select(0, 2),
    "slice": lambda t: t[1:, ::2],
    "index_list": lambda t: t[[0, 2]],
    "mask": lambda t: t[t > 5],
    "expand": lambda t: t[:1].expand(5, 4),
    "flatten": lambda t: t.flatten(),
    "contiguous": lambda t: t.contiguous(),
    "clone": lambda t: t.clone(),
    "detach": lambda t: t.detach(),
    "unsqueeze": lambda t: t.unsqueeze(0),
    "squeeze": lambda t: t.unsqueeze(1).squeeze(1),
    "diagonal": lambda t: t.diagonal(),
    "unflatten": lambda t: t.unflatten(1, (2, 2)),
    "to_same": lambda t: t.to(torch.float32),
    "to_double": lambda t: t.to(torch.float64),
    "float": lambda t: t.float(),
    "mT": lambda t: t.mT,
    "movedim": lambda t: t.movedim(0, 1),
    "chunk0": lambda t: t.chunk(2, dim=1)[1],
    "split0": lambda t: t.split([1, 2], dim=0)[1],
    "unbind1": lambda t: t.unbind(0)[1],
    "view_as_real?": lambda t: t.view(torch.int32),
}
for name, fn in ops.items():
    r = fn(x)
    print(f"{name:14s} shares={same_storage(r)!s:5s} offset={r.storage_offset()} "
          f"stride={r.stride()} contig={r.is_contiguous()} base={r._base is x}")

n = x.narrow(1, 1, 2)
print((n.data_ptr() - x.data_ptr()) // x.element_size(), n.storage_offset())
print(x.element_size(), x.nbytes, x.itemsize, x.untyped_storage().nbytes())
print(n.nbytes, n.untyped_storage().nbytes())
h = x.half()
print(h.element_size(), h.nbytes, h.untyped_storage().nbytes())
b = torch.zeros(5, dtype=torch.bool)
print(b.element_size(), b.nbytes, torch.zeros(3, dtype=torch.complex64).element_size())
