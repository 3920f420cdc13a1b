# makemore part 3 "pytorchifying the code": layers initialised from torch.Generator().manual_seed,
# train/dev/test split with random.shuffle, minibatches from torch.randint(generator=g), the
# retain_grad() diagnostics and sampling with torch.multinomial -- printing only facts that do
# not depend on the random numbers (shapes, dtypes, counts, flags).
import random

import torch
import torch.nn.functional as F

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


random.seed(42)
random.shuffle(words)
n1, n2 = int(0.8 * len(words)), int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])

g = torch.Generator().manual_seed(2147483647)
print(type(g).__name__, g.initial_seed())


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


n_embd, n_hidden = 4, 16
C = torch.randn((vocab_size, n_embd), generator=g)
layers = [Linear(n_embd * block_size, n_hidden), Tanh(), Linear(n_hidden, n_hidden), Tanh(),
          Linear(n_hidden, vocab_size)]
with torch.no_grad():
    layers[-1].weight *= 0.1
    for layer in layers[:-1]:
        if isinstance(layer, Linear):
            layer.weight *= 5 / 3
parameters = [C] + [p for layer in layers for p in layer.parameters()]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

max_steps, batch_size = 3, 8
lossi, ud = [], []
for i in range(max_steps):
    ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix]
    emb = C[Xb]
    x = emb.view(emb.shape[0], -1)
    for layer in layers:
        x = layer(x)
    loss = F.cross_entropy(x, Yb)
    for layer in layers:
        layer.out.retain_grad()
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 100000 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    lossi.append(loss.log10().item())
    with torch.no_grad():
        ud.append([((lr * p.grad).std() / p.data.std()).log10().item() for p in parameters])
print(ix.shape, ix.dtype, Xb.shape, emb.shape, x.shape, loss.shape, loss.grad_fn.name())
print(len(lossi), len(ud), len(ud[0]), all(isinstance(v, float) for v in lossi))
print([tuple(layer.out.grad.shape) for layer in layers], layers[1].out.grad.dtype)
print([layer.out.is_leaf for layer in layers], [layer.out.requires_grad for layer in layers])
for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, Tanh):
        t = layer.out
        print(f'layer {i} ({layer.__class__.__name__}): saturated fraction is a {type((t.abs() > 0.97).float().mean().item()).__name__}')
hy, hx = torch.histogram(layers[1].out.detach(), bins=10, density=True)
print(hy.shape, hx.shape, hy.dtype)
print(torch.tensor(lossi).view(-1, 1).mean(1).shape)


@torch.no_grad()
def split_loss(split):
    x, y = {'train': (Xtr, Ytr), 'val': (Xdev, Ydev), 'test': (Xte, Yte)}[split]
    emb = C[x]
    x = emb.view(emb.shape[0], -1)
    for layer in layers:
        x = layer(x)
    loss = F.cross_entropy(x, y)
    print(split, loss.requires_grad, loss.dtype, loss.dim())


split_loss('train')
split_loss('val')

g = torch.Generator().manual_seed(2147483647 + 10)
names = []
for _ in range(3):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        x = emb.view(emb.shape[0], -1)
        for layer in layers:
            x = layer(x)
        probs = F.softmax(x, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 30:
            break
    names.append(''.join(itos[i] for i in out))
print(len(names), probs.shape, type(ix).__name__, all(isinstance(n, str) for n in names))
state = g.get_state()
print(state.dtype, state.dim(), g.device)  # its size is the generator's own (numpy's PCG64)
