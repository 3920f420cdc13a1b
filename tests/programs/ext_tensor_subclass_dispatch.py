# Subclassing torch.Tensor as PyTorch's "Extending torch" notes do: as_subclass, types kept
# through operations, a logging __torch_function__, intercepting one function, Parameters
# unaffected, gradients through a subclass.
import torch


class MetadataTensor(torch.Tensor):
    pass


x = torch.arange(4.0, requires_grad=True)
m = x.as_subclass(MetadataTensor)
print(m)
print(type(m).__name__, m.grad_fn, m.is_leaf, m.requires_grad)
y = m * 2 + 1
print(type(y).__name__, y)
print(type(y.sum()).__name__, type(y[1:]).__name__, type(torch.exp(y)).__name__,
      type(torch.nn.functional.relu(y)).__name__, type(y.detach()).__name__)
print(type(y.shape).__name__, type(y.tolist()).__name__, y.dtype)
y.sum().backward()
print(x.grad)
print(isinstance(m, torch.Tensor), torch.is_tensor(m))

calls = []


class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        calls.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs or {})


t = torch.ones(3).as_subclass(LoggingTensor)
r = torch.mul(t, 2).sum()
print(type(r).__name__, r.item(), calls)


class Intercepting(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.add:
            return "add intercepted"
        return super().__torch_function__(func, types, args, kwargs)


s = torch.ones(2).as_subclass(Intercepting)
print(torch.add(s, 1), type(torch.mul(s, 2)).__name__)

p = torch.nn.Parameter(torch.ones(2))
print(type(p * 2).__name__, type(torch.add(p, 1)).__name__)
layer = torch.nn.Linear(2, 1)
with torch.no_grad():
    layer.weight.fill_(0.5)
    layer.bias.fill_(0.1)
out = layer(torch.ones(1, 2).as_subclass(MetadataTensor))
print(type(out).__name__, out.detach().tolist())
print(MetadataTensor([1.0, 2.0]))
