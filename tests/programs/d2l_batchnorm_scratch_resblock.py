# d2l.ai 8.5 batch normalization from scratch (moving averages) and 8.6 the Residual block.
import torch
from torch import nn
from torch.nn import functional as F


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1)
        return Y


X = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4).sin() * 3 + 1
bn = BatchNorm(3, num_dims=4)
Y = bn(X)
print(Y.shape, Y.mean(dim=(0, 2, 3)).abs().max() < 1e-5, Y.grad_fn)
print(bn.moving_mean.flatten(), bn.moving_var.flatten())
print(bn.moving_mean.requires_grad, bn.moving_mean.grad_fn, list(bn.state_dict().keys()))
Y.sum().backward()
print(bn.gamma.grad.abs().max() < 1e-4, bn.beta.grad.flatten())
bn.gamma.grad = None
(bn(X) * X).sum().backward()
print(bn.gamma.grad.flatten())

# compare with the built-in layer, including running stats and eval mode
ref = nn.BatchNorm2d(3, momentum=0.1)
Y_ref = ref(X)
Y_ref = ref(X)
print(torch.allclose(Y, Y_ref, atol=1e-5), ref.running_mean, ref.num_batches_tracked)
print(torch.allclose(ref.running_mean, bn.moving_mean.flatten()), torch.allclose(ref.running_var, bn.moving_var.flatten()))
print(ref.running_var)
ref.eval()
with torch.no_grad():
    e1, e2 = ref(X), bn(X)
print(torch.allclose(e1, e2, atol=1e-5), e1[0, :, 0, 0])

bn1 = BatchNorm(4, num_dims=2)
X2 = torch.tensor([[1.0, 2, 3, 4], [2, 4, 6, 8], [0, 0, 1, 1]])
print(bn1(X2), bn1.moving_var)
print(nn.BatchNorm1d(4)(X2))


class Residual(nn.Module):
    def __init__(self, input_channels, num_channels, use_1x1conv=False, strides=1):
        super().__init__()
        self.conv1 = nn.Conv2d(input_channels, num_channels, kernel_size=3, padding=1, stride=strides)
        self.conv2 = nn.Conv2d(num_channels, num_channels, kernel_size=3, padding=1)
        if use_1x1conv:
            self.conv3 = nn.Conv2d(input_channels, num_channels, kernel_size=1, stride=strides)
        else:
            self.conv3 = None
        self.bn1 = nn.BatchNorm2d(num_channels)
        self.bn2 = nn.BatchNorm2d(num_channels)

    def forward(self, X):
        Y = F.relu(self.bn1(self.conv1(X)))
        Y = self.bn2(self.conv2(Y))
        if self.conv3:
            X = self.conv3(X)
        Y += X
        return F.relu(Y)


def fill(m):
    names = [n for n, _ in m.named_parameters()]
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            if p.dim() > 1:
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.2)
            elif 'conv' in names[i]:
                p.fill_(0.01 * i)
    return m


blk = fill(Residual(3, 3))
X = torch.arange(4 * 3 * 6 * 6, dtype=torch.float32).reshape(4, 3, 6, 6).cos()
Y = blk(X)
print(Y.shape, Y.grad_fn, Y[0, 0, 0])
blk = fill(Residual(3, 6, use_1x1conv=True, strides=2))
Y = blk(X)
print(blk(X).shape, Y[0, :, 0, 0])
Y.mean().backward()
print(blk.conv3.bias.grad, blk.bn1.running_mean[:5])
print(blk)
print([n for n, _ in blk.named_buffers()])
