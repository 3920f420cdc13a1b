# cumsum / cumprod, where, clamp, sign, abs: running totals and masking idioms.
import torch

x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
print(torch.cumsum(x, dim=1), x.cumsum(0), x.cumprod(dim=1))
print(torch.where(x > 0, x, torch.zeros_like(x)), torch.where(x > 0, x, 0.0))
print(torch.where(x < 0))
print(x.clamp(-1, 1), x.clamp(min=0), torch.clamp(x, max=2), x.clip(-3, 3))
print(x.sign(), x.abs().sum(), (x > 0).sum(), (x > 0).any(), (x > 0).all(dim=1))

w = torch.tensor([1., 2., 3.], requires_grad=True)
c = w.cumsum(0)
c.sum().backward()
print(c, w.grad, c.grad_fn.name())
w.grad = None
clamped = w.clamp(1.5, 2.5)
clamped.sum().backward()
print(clamped, w.grad)
w.grad = None
wh = torch.where(w > 1.5, w * w, -w)
wh.sum().backward()
print(wh, w.grad, wh.grad_fn.name())

rewards = torch.tensor([1., 0., 0., 1.])
gamma = 0.9
discounts = gamma ** torch.arange(4.)
returns = (rewards * discounts).flip(0).cumsum(0).flip(0) / discounts
print(returns)
print(torch.nonzero(x > 0), (x > 0).nonzero(as_tuple=True))
