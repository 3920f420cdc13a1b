# Tensor factory methods that keep dtype/device: new_zeros, new_ones, new_full, new_tensor, type_as.
import torch

x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)
print(x.new_zeros(3), x.new_ones((2, 3)), x.new_full((2,), 7.0), x.new_empty(2, 2).shape)
print(x.new_tensor([1, 2, 3]), x.new_tensor([1, 2]).dtype)
i = torch.tensor([1, 2, 3])
print(i.new_zeros(2).dtype, i.new_ones(2, dtype=torch.float32))
print(i.type_as(x), i.type(torch.float32), i.type(), x.type())
print(torch.zeros_like(x), torch.ones_like(i, dtype=torch.float32), torch.full_like(i, 9))
print(torch.empty(2, 3).shape, torch.empty_like(x).dtype)

m = torch.zeros(3, 3)
m.fill_diagonal_(5.0)
print(m)
print(torch.eye(3).masked_fill(torch.eye(3).bool(), -1.0))
mask = torch.tensor([True, False, True])
print(torch.arange(3.).masked_fill(mask, 0.5), torch.arange(3.).masked_fill_(~mask, 9))
print(torch.arange(6).view(2, 3).masked_select(torch.tensor([[True, False, True], [False, True, False]])))
print(x.clone().zero_(), x.detach().clone().requires_grad_().is_leaf)
print(x.to(torch.int64), x.long().float(), x.int().dtype, x.bool(), x.half().dtype)
print(x.flatten().tolist(), x.numpy().dtype, torch.from_numpy(x.numpy()).dtype)
print(x.element_size(), x.nelement(), x.numel(), x.dim(), x.ndimension(), x.size(1), x.shape[-1])
print(torch.tensor(3.5).item(), torch.tensor([7]).item(), int(torch.tensor(2.9)), float(torch.tensor(2)))
