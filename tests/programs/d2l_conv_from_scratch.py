# d2l.ai 7.2 / 7.4: cross-correlation by hand, edge detection, learning a kernel, multiple
# input and output channels, 1x1 convolution as a matmul (no d2l package).
import torch
from torch import nn


def corr2d(X, K):
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))


class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(kernel_size) * 0.5)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias


X = torch.ones((6, 8))
X[:, 2:6] = 0
print(X)
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)
print(corr2d(X.t(), K))

layer = Conv2D((1, 2))
out = layer(X)
print(out.grad_fn, out.grad_fn.next_functions[0][0].name())
((out - Y) ** 2).sum().backward()
print(layer.weight.grad, layer.bias.grad)

conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
with torch.no_grad():
    conv2d.weight.copy_(torch.tensor([[[[0.3, 0.2]]]]))
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i + 1}, loss {l.sum():.3f}')
print(conv2d.weight.data.reshape((1, 2)))


def corr2d_multi_in(X, K):
    return sum(corr2d(x, k) for x, k in zip(X, K))


X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                  [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))


def corr2d_multi_in_out(X, K):
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)


K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape)
print(corr2d_multi_in_out(X, K))
print(torch.allclose(corr2d_multi_in_out(X, K), nn.functional.conv2d(X.unsqueeze(0), K).squeeze(0)))


def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = X.reshape((c_i, h * w))
    K = K.reshape((c_o, c_i))
    Y = torch.matmul(K, X)
    return Y.reshape((c_o, h, w))


X = torch.linspace(-1, 1, 27).reshape(3, 3, 3)
K = torch.arange(6.0).reshape(2, 3, 1, 1) / 6
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
print(float(torch.abs(Y1 - Y2).sum()) < 1e-6, Y1[0])

# gradient through the element-by-element loop
Xg = torch.arange(9.0).reshape(3, 3).requires_grad_()
Kg = torch.tensor([[1.0, -1.0], [0.5, 0.0]], requires_grad=True)
Yg = corr2d(Xg, Kg)
Yg.sum().backward()
print(Yg, Xg.grad, Kg.grad)
print(Yg.grad_fn.name(), Yg.requires_grad, Yg.is_leaf)
