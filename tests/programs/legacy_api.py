# Older tutorial code still pasted everywhere: Variable, FloatTensor/LongTensor, torch.Tensor(sizes).
import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
y = x * 3
y.sum().backward()
print(x.grad, type(x).__name__, isinstance(x, torch.Tensor), torch.is_tensor(y))

a = torch.FloatTensor([1, 2, 3])
b = torch.LongTensor([1, 2, 3])
print(a, a.dtype, b, b.dtype, torch.DoubleTensor([1.5]).dtype)
print(torch.Tensor(2, 3).shape, torch.Tensor([1, 2]).dtype, torch.Tensor([[1, 2]]).shape)
print(a.type(torch.LongTensor), isinstance(a, torch.FloatTensor), a.type(torch.DoubleTensor).dtype)
print(torch.FloatTensor(2, 2).shape, torch.zeros(3).type())

torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, torch.zeros(2).dtype, torch.nn.Linear(2, 2).weight.dtype,
      torch.get_default_dtype(), torch.arange(3.0).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]).dtype)
print(x.data.numpy(), x.detach().numpy().shape, torch.numel(x), x.nelement())
print(torch.from_numpy(x.detach().numpy() * 2))
