# Creating tensors: arange with float and negative steps (and its famous off-by-one), linspace,
# full's dtype inference, eye, tril/triu with offsets, *_like with a dtype, legacy constructors.
import numpy as np
import torch

print(torch.arange(0, 1, 0.1), torch.arange(0, 1, 0.1).shape)
print(torch.arange(1, 2.5, 0.5), torch.arange(1, 0, -0.25), torch.arange(-1, 1, 0.3))
print(torch.arange(5, dtype=torch.float64), torch.arange(0, 10, 3), torch.arange(10, 0, -3))
print(torch.arange(0.5, 3), torch.arange(1, 4, dtype=torch.float32).dtype, torch.arange(0, 5, 2.0).dtype)
print(torch.arange(0, 1, 0.25, dtype=torch.float64), torch.arange(3, 3), torch.arange(1.0, 2.0, 0.3).tolist())
print(torch.arange(6).view(2, 3).float() / 5)
try:
    torch.arange(0, 5, -1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(0, 5, 0)
except RuntimeError as e:
    print("RuntimeError:", e)

print(torch.linspace(0, 1, 5), torch.linspace(-2, 2, steps=4), torch.linspace(3, 3, 1), torch.linspace(0, 1, 0))
print(torch.linspace(1, 0, 3), torch.linspace(0, 10, 6, dtype=torch.float64), torch.linspace(0, 9, 4).dtype)

print(torch.full((2, 2), 7), torch.full((2,), 7).dtype, torch.full((2,), 7.0).dtype, torch.full((1,), True))
print(torch.full((2, 3), -1.5), torch.full((2,), 3, dtype=torch.float32), torch.full((), 2.5))
print(torch.zeros(2, 3, dtype=torch.int32), torch.ones((2,), dtype=torch.bool), torch.zeros([0]).shape)
print(torch.eye(3), torch.eye(2, 4), torch.eye(3, dtype=torch.int64))

m = torch.arange(1, 17).view(4, 4)
print(torch.tril(m), torch.triu(m))
print(torch.tril(m, diagonal=-1), torch.triu(m, 1), m.triu(-2))
print(torch.tril(torch.ones(2, 4)), torch.triu(torch.ones(4, 2), diagonal=1))
causal = torch.triu(torch.full((3, 3), float("-inf")), diagonal=1)
print(causal, torch.softmax(causal, dim=-1))
print(torch.ones(3, 3).tril().bool(), torch.tril(torch.ones(3, 3)) == 0)

f = torch.tensor([[1.5, 2.5]])
i = torch.tensor([1, 2, 3])
print(torch.zeros_like(f), torch.zeros_like(f, dtype=torch.int64), torch.ones_like(i), torch.ones_like(i, dtype=torch.float64))
print(torch.full_like(f, 4), torch.full_like(i, 2.7), torch.empty_like(i).shape, torch.zeros_like(i).dtype)

print(torch.tensor([1, 2.5]), torch.tensor([True, False]).dtype, torch.tensor([[1, 2], [3, 4]]).dtype)
print(torch.tensor(np.array([1.5, 2.0])).dtype, torch.tensor(np.array([1, 2], dtype=np.int32)).dtype,
      torch.from_numpy(np.arange(3.0)).dtype, torch.as_tensor([1.0, 2.0]).dtype)
print(torch.tensor(((1, 2), (3, 4))), torch.tensor(5).shape, torch.tensor([5]).shape, torch.tensor([[]]).shape)
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.FloatTensor([1, 2]).dtype, torch.LongTensor([1, 2]))
print(torch.tensor([]).dtype, torch.tensor([], dtype=torch.long), torch.empty(2, 0, 3).numel())
print(torch.diag(torch.tensor([1, 2, 3])), torch.diag(torch.arange(9).view(3, 3)), torch.diag(torch.tensor([1., 2.]), 1))
print(torch.diag_embed(torch.tensor([[1., 2.], [3., 4.]])))
print(torch.scalar_tensor(3), torch.tensor(3.0).dim(), torch.tensor([3.0]).dim())
