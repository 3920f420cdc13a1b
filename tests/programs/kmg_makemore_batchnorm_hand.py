# makemore part 3: the kaiming-scaled MLP with a hand-written batch norm layer, running
# statistics updated under torch.no_grad(), calibration after training, and the
# torch.nn-like Linear/BatchNorm1d/Tanh classes with out/grad inspection.
import torch
import torch.nn.functional as F

n_embd, n_hidden, vocab_size, block_size = 2, 8, 6, 3
X = torch.tensor([[0, 0, 1], [0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 0]])
Y = torch.tensor([2, 3, 4, 5, 0, 1])
C = torch.linspace(-1, 1, vocab_size * n_embd).view(vocab_size, n_embd)
W1 = torch.sin(torch.arange(n_embd * block_size * n_hidden, dtype=torch.float32)).view(6, n_hidden) * (5/3) / (n_embd * block_size)**0.5
W2 = torch.cos(torch.arange(n_hidden * vocab_size, dtype=torch.float32)).view(n_hidden, vocab_size) * 0.01
b2 = torch.zeros(vocab_size)
bngain = torch.ones((1, n_hidden))
bnbias = torch.zeros((1, n_hidden))
bnmean_running = torch.zeros((1, n_hidden))
bnstd_running = torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

print(torch.tensor(5/3), (torch.nn.init.calculate_gain('tanh')), W1.std().item() > 0)
for i in range(4):
    emb = C[X]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    print(f'{i:7d}: {loss.item():.4f}')
print(bnmean_running.requires_grad, bnmean_running.grad_fn, bnmean_running.shape)
print(bnmean_running)
print(bnstd_running)
print(hpreact.grad_fn.name(), bnstdi.grad_fn.name(), bnmeani.grad_fn.name())
print((h.abs() > 0.97).float().mean(), (h.abs() > 0.97).dtype)

with torch.no_grad():
    emb = C[X]
    embcat = emb.view(emb.shape[0], -1)
    hpreact = embcat @ W1
    bnmean = hpreact.mean(0, keepdim=True)
    bnstd = hpreact.std(0, keepdim=True)
print(bnmean.requires_grad, bnstd.shape, torch.allclose(bnstd, hpreact.std(0, unbiased=True, keepdim=True)))
print(hpreact.var(0, keepdim=True, unbiased=False) < hpreact.var(0, keepdim=True))


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma = torch.ones(dim)
        self.beta = torch.zeros(dim)
        self.running_mean = torch.zeros(dim)
        self.running_var = torch.ones(dim)

    def __call__(self, x):
        if self.training:
            xmean = x.mean(0, keepdim=True)
            xvar = x.var(0, keepdim=True)
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


x = torch.arange(12, dtype=torch.float32).view(4, 3) ** 1.5
mine = BatchNorm1d(3)
ref = torch.nn.BatchNorm1d(3)
out_mine, out_ref = mine(x), ref(x)
print(out_mine.shape, mine.running_mean.shape, ref.running_mean.shape)
print(mine.running_mean, ref.running_mean)
print(mine.running_var.view(-1), ref.running_var)
print(torch.allclose(out_mine, out_ref, atol=1e-3), (out_mine - out_ref).abs().max())
print(ref.num_batches_tracked, ref.momentum, ref.eps)
mine.training = False; ref.eval()
print(mine(x).view(-1)[:3], ref(x).view(-1)[:3])
