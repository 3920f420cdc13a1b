# d2l.ai 5.1 activation functions and their derivatives, evaluated on the book's grid
# x = torch.arange(-8.0, 8.0, 0.1) (printing numbers instead of plotting them).
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
print(x.shape, x.dtype, x[:3], x[-3:])
print(x[78:83])
y = torch.relu(x)
print(y[78:83], y.sum())
y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad[78:83], x.grad.sum())  # derivative of the ReLU

y = torch.sigmoid(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(y[::40], x.grad[::40])
print(x.grad.max(), x.grad.argmax(), x[x.grad.argmax()])

y = torch.tanh(x)
x.grad.data.zero_()
y.backward(torch.ones_like(x), retain_graph=True)
print(y[::40], x.grad[::40], x.grad.max())

# pReLU and the exercises' variants
alpha = 0.1
y = torch.where(x > 0, x, alpha * x)
x.grad.zero_()
y.sum().backward()
print(y[78:83], x.grad[78:83])
prelu = torch.nn.PReLU(init=0.25)
print(prelu(x[::40].detach()), prelu.weight)
print(torch.nn.functional.leaky_relu(x[76:84].detach(), 0.01))
print(torch.nn.functional.gelu(x[::32].detach()), torch.nn.functional.silu(x[::32].detach()))

# the zero point of the grid
print(x[80], x[80] == 0, (x == 0).any(), torch.arange(0.0, 1.0, 0.1)[3], torch.arange(-1.0, 1.0, 0.25))
sig_grad = torch.sigmoid(x.detach()) * (1 - torch.sigmoid(x.detach()))
x.grad.zero_()
torch.sigmoid(x).sum().backward()
print(torch.allclose(sig_grad, x.grad), len(torch.arange(0, 1, 0.1)), len(torch.arange(-8.0, 8.0, 0.1)))
print(torch.arange(1, 2.5, 0.5), torch.arange(5, 1, -1.5), torch.arange(0, 0.3, 0.1).tolist())
