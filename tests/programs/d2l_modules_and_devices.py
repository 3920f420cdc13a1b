# d2l.ai 6.1 layers and modules (MySequential, FixedHiddenMLP, NestMLP) and 6.7 GPUs helpers,
# on a CPU-only machine (no d2l package).
import torch
from torch import nn
from torch.nn import functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(20, 256)
        self.out = nn.Linear(256, 10)

    def forward(self, X):
        return self.out(F.relu(self.hidden(X)))


class MySequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self.add_module(str(idx), module)

    def forward(self, X):
        for module in self.children():
            X = module(X)
        return X


class OldSequential(nn.Module):
    def __init__(self, *args):
        super().__init__()
        for idx, module in enumerate(args):
            self._modules[str(idx)] = module

    def forward(self, X):
        for block in self._modules.values():
            X = block(X)
        return X


class FixedHiddenMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rand_weight = torch.cos(torch.arange(400.0)).reshape(20, 20)
        self.linear = nn.Linear(20, 20)

    def forward(self, X):
        X = self.linear(X)
        X = F.relu(X @ self.rand_weight + 1)
        X = self.linear(X)
        while X.abs().sum() > 1:
            X /= 2
        return X.sum()


class NestMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.linear = nn.Linear(32, 16)

    def forward(self, X):
        return self.linear(self.net(X))


def fill(net):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.1 + i).reshape(p.shape) * 0.1)
    return net


X = torch.linspace(0, 1, 40).reshape(2, 20)
print(fill(MLP())(X).shape)
net = fill(MySequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10)))
print(net(X)[:, :3], net)
print(list(net._modules.keys()), [type(m).__name__ for m in net.children()])
net2 = fill(OldSequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 10)))
print(torch.equal(net(X), net2(X)), len(list(net2.parameters())), list(net2.state_dict().keys()))
fixed = fill(FixedHiddenMLP())
print(fixed(X), [n for n, _ in fixed.named_parameters()], list(fixed.state_dict().keys()))
chimera = nn.Sequential(NestMLP(), nn.Linear(16, 20), FixedHiddenMLP())
fill(chimera)
print(chimera(X), chimera)
out = chimera(X)
out.backward()
print(chimera[1].bias.grad[:3], out.grad_fn)


# 6.7 GPUs: the helper functions, run on a machine without a GPU
def cpu():
    return torch.device('cpu')


def gpu(i=0):
    return torch.device(f'cuda:{i}')


def num_gpus():
    return torch.cuda.device_count()


def try_gpu(i=0):
    if num_gpus() >= i + 1:
        return gpu(i)
    return cpu()


def try_all_gpus():
    return [gpu(i) for i in range(num_gpus())]


print(num_gpus(), try_gpu(), try_gpu(10), try_all_gpus())
print((cpu(), gpu(), gpu(1)))
print(gpu(1).type, gpu(1).index, str(gpu(1)), cpu().index, cpu() == torch.device('cpu'))
x = torch.tensor([1, 2, 3])
print(x.device, x.device == cpu())
X = torch.ones(2, 3, device=try_gpu())
print(X, X.device.type)
net = nn.Sequential(nn.Linear(3, 1))
net = net.to(device=try_gpu())
print(net[0].weight.data.device, next(net.parameters()).is_cuda)
print(torch.device('cpu', 0), torch.device('cpu:0') == torch.device('cpu'))
