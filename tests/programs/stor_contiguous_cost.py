# Blog "when does .contiguous() copy?": comparing data_ptr() before/after contiguous(), reshape vs
# view, flatten, and numpy() of non-contiguous tensors.
import torch

x = torch.arange(24.0).reshape(4, 6)
cases = {
    "contiguous on contiguous": x,
    "row slice": x[1:3],
    "col slice": x[:, 1:3],
    "step rows": x[::2],
    "transpose": x.t(),
    "expand": x[:1].expand(3, 6),
    "unsqueeze": x.unsqueeze(1),
    "single col": x[:, 2:3],
    "size-1 dims": x[:1, :].t().t(),
    "empty": x[:0],
}
for name, t in cases.items():
    c = t.contiguous()
    r = t.reshape(-1)
    f = t.flatten()
    print(f"{name:26s} contig={t.is_contiguous()!s:5s} same_after_contiguous={c.data_ptr() == t.data_ptr()!s:5s} "
          f"reshape_view={r.data_ptr() == t.data_ptr() and r._base is not None!s:5s} flatten_view={f._base is not None!s:5s}")
    print("   ", t.stride(), c.stride(), c is t)
col = x[:, 2:3]
print(col.stride(), col.is_contiguous(), col.view(4).stride())
odd = torch.arange(6.0).view(6, 1)[::2]
print(odd.stride(), odd.is_contiguous(), odd.view(3).stride())
n = x.t().numpy()
print(n.flags["C_CONTIGUOUS"], n.flags["F_CONTIGUOUS"], n.strides)
print(x.t().contiguous().numpy().strides)
z = torch.zeros(3, 0, 2)
print(z.stride(), z.is_contiguous(), z.t().is_contiguous() if z.dim() == 2 else z.transpose(0, 2).is_contiguous())
s = torch.tensor(3.0)
print(s.stride(), s.is_contiguous(), s.view(1).stride(), s.reshape(()).shape)
big = torch.arange(12.0).view(3, 4).t()
print(big.reshape(2, 6).stride(), big.reshape(4, 3).stride(), big.reshape(4, 3, 1).stride())
print(big.view(4, 3, 1).stride(), big.unsqueeze(-1).stride(), big.flatten(0, 0).stride())
