# Low-level allocation idioms: torch.empty_strided / new_empty_strided with custom layouts,
# is_set_to, storage sizes of padded layouts, and as_strided views into them.
import torch

e = torch.empty_strided((2, 3), (1, 2))
print(e.shape, e.stride(), e.is_contiguous(), e.t().is_contiguous(), e.untyped_storage().nbytes())
e.copy_(torch.arange(6.0).view(2, 3))
print(e, e.t().contiguous().view(-1) if e.t().is_contiguous() else None)
padded = torch.empty_strided((3, 4), (8, 1))
print(padded.stride(), padded.is_contiguous(), padded.untyped_storage().nbytes())
padded.fill_(1.0)
print(padded.sum().item())
n = torch.arange(4.0).new_empty_strided((2, 2), (1, 2))
print(n.stride(), n.dtype)
n2 = torch.arange(4).new_empty_strided((2, 2), (2, 1), dtype=torch.float64)
print(n2.dtype, n2.stride())
z = torch.zeros(4)
print(z.is_set_to(z), z.is_set_to(z.view(2, 2)), z.is_set_to(z.view(4)), z.is_set_to(z.clone()))
print(z.is_set_to(z[:]), z.is_set_to(z.detach()))
b = torch.empty_strided((2, 2, 2), (4, 1, 2))
print(b.is_contiguous(), b.permute(0, 2, 1).is_contiguous(), b.stride())
b.copy_(torch.arange(8.0).view(2, 2, 2))
print(b.permute(0, 2, 1).reshape(-1), b.permute(0, 2, 1).reshape(-1)._base is not None)
print(torch.empty_strided((0, 3), (3, 1)).stride(), torch.empty_strided((), ()).shape)
try:
    torch.empty_strided((2, 2), (1,))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.empty_like(torch.empty_strided((2, 3), (1, 2))).stride())
print(torch.empty_like(torch.empty_strided((3, 4), (8, 1))).stride())
print(torch.empty_like(torch.empty_strided((2, 2), (0, 1))).stride())
r = torch.empty_strided((4,), (2,))
r.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(r.untyped_storage().nbytes(), r, r.as_strided((7,), (1,)).shape)
