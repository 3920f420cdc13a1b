# makemore part 5 (WaveNet): torch.nn-like layers written by hand, FlattenConsecutive,
# BatchNorm1d over dims (0, 1) for 3-d input, a Sequential container, and the nn.BatchNorm1d
# (N, C, L) convention that the lecture stumbles over.
import torch
import torch.nn.functional as F


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.cos(torch.arange(fan_in * fan_out, dtype=torch.float32)).view(fan_in, fan_out) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)

    def __call__(self, x):
        if self.training:
            if x.ndim == 2:
                dim = 0
            elif x.ndim == 3:
                dim = (0, 1)
            xmean = x.mean(dim, keepdim=True)
            xvar = x.var(dim, keepdim=True)
        else:
            xmean, xvar = self.running_mean, self.running_var
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps)
        self.out = self.gamma * xhat + self.beta
        if self.training:
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


class Embedding:
    def __init__(self, num_embeddings, embedding_dim):
        self.weight = torch.linspace(-1, 1, num_embeddings * embedding_dim).view(num_embeddings, embedding_dim)

    def __call__(self, IX):
        self.out = self.weight[IX]
        return self.out

    def parameters(self):
        return [self.weight]


class FlattenConsecutive:
    def __init__(self, n):
        self.n = n

    def __call__(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        self.out = x
        return self.out

    def parameters(self):
        return []


class Sequential:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        self.out = x
        return self.out

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


vocab_size, n_embd, n_hidden = 7, 3, 6
model = Sequential([
    Embedding(vocab_size, n_embd),
    FlattenConsecutive(2), Linear(n_embd * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    FlattenConsecutive(2), Linear(n_hidden * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    FlattenConsecutive(2), Linear(n_hidden * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    Linear(n_hidden, vocab_size),
])
with torch.no_grad():
    model.layers[-1].weight *= 0.1
parameters = model.parameters()
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

Xb = torch.tensor([[0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1, 2], [0, 0, 0, 0, 0, 1, 2, 3], [1, 2, 3, 4, 5, 6, 0, 1]])
Yb = torch.tensor([2, 3, 4, 2])
logits = model(Xb)
for layer in model.layers:
    print(layer.__class__.__name__, ':', tuple(layer.out.shape))
loss = F.cross_entropy(logits, Yb)
for p in parameters:
    p.grad = None
loss.backward()
print(loss, logits.grad_fn.name())
print(model.layers[3].running_mean.shape, model.layers[3].running_mean)
print(model.layers[0].weight.grad[:3])
for i, layer in enumerate(model.layers):
    if isinstance(layer, Tanh):
        t = layer.out
        print('layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%' % (
            i, layer.__class__.__name__, t.mean(), t.std(), (t.abs() > 0.97).float().mean() * 100))
for p in parameters:
    if p.ndim == 2:
        print('weight %10s | |mean| %.4f | std %.4e | grad:data ratio %.4e' % (
            tuple(p.shape), p.grad.mean().abs(), p.grad.std(), p.grad.std() / p.std()))
print([((0.1 * p.grad).std() / p.data.std()).log10().item() > -10 for p in parameters][:3])

# the view trick: concatenating even and odd positions is the same as a view
e = torch.arange(4 * 8 * 10, dtype=torch.float32).view(4, 8, 10)
explicit = torch.cat([e[:, ::2, :], e[:, 1::2, :]], dim=2)
print(explicit.shape, (e.view(4, 4, 20) == explicit).all())
print(e[:, ::2, :].is_contiguous(), e[:, ::2, :].stride(), e.view(4, 4, 20).stride())
print(e.mean((0, 1), keepdim=True).shape, e.var((0, 1), keepdim=True).shape, e.var((0, 1)).shape)
print(e.mean((0, 1)).shape, e.mean(dim=(0, 1), keepdim=True)[0, 0, :4])

# torch.nn.BatchNorm1d wants (N, C, L): a (4, 8, 10) input normalises over 8 channels
bn = torch.nn.BatchNorm1d(10)
try:
    bn(e)
except RuntimeError as err:
    print(type(err).__name__, err)
bn8 = torch.nn.BatchNorm1d(8)
out = bn8(e)
print(out.shape, bn8.running_mean.shape, bn8.running_mean[:3])
out2 = bn(e.transpose(1, 2)).transpose(1, 2)
print(out2.shape, bn.running_var[:3], bn.num_batches_tracked)
