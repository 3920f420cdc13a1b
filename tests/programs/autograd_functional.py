# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp of small functions.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.tensor([[0.1, 0.2], [0.3, -0.4]])
print(jacobian(exp_reducer, inputs))
print(jacobian(lambda a, b: a * b, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))


def pow_reducer(x):
    return x.pow(3).sum()


print(hessian(pow_reducer, torch.tensor([1., 2.])))
print(vjp(exp_reducer, inputs, torch.ones(2)))
print(jvp(exp_reducer, inputs, torch.ones(2, 2)))
print(hvp(pow_reducer, torch.tensor([1., 2.]), torch.tensor([1., 0.])))
