# makemore part 1: bigram counts in an int32 table, normalise rows into probabilities,
# the keepdim broadcasting pitfall, and the negative log likelihood of the data.
import torch

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia']
print(len(words), min(len(w) for w in words), max(len(w) for w in words))
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
print(V, chars)

N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        N[ix1, ix2] += 1
print(N.dtype, N.shape, N.sum(), N[0])
print(N[0, 1], N[0, 1].item(), type(N[0, 1].item()), N.max(), N.argmax())
print(N[stoi['a']])
p = N[0].float()
p = p / p.sum()
print(p)
print(p.sum(), p.dtype)

# model smoothing and the row normalisation
P = (N + 1).float()
print(P.sum(1, keepdims=True).shape, P.sum(1).shape, P.sum(0, keepdim=True).shape)
P /= P.sum(1, keepdims=True)
print(P[0].sum(), P.sum(1)[:4])
# the bug from the lecture: without keepdim the (V,) vector broadcasts along rows
Q = (N + 1).float()
Q = Q / Q.sum(1)
print(Q[0].sum(), Q[:, 0].sum())
print(torch.allclose(P, Q))
print(P[:3, :4])

# deterministic "sampling": take the argmax row by row instead of torch.multinomial
g = torch.Generator().manual_seed(2147483647)
sample = torch.multinomial(P[0], num_samples=5, replacement=True, generator=g)
print(sample.shape, sample.dtype)
out = []
ix = 0
for _ in range(8):
    ix = torch.argmax(P[ix]).item()
    out.append(itos[ix])
    if ix == 0:
        break
print(''.join(out))

# evaluate the loss: average negative log likelihood
log_likelihood = 0.0
n = 0
for w in words[:3]:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
print(f'{log_likelihood=}')
nll = -log_likelihood
print(f'{nll=}')
print(f'{nll/n}')
print(type(log_likelihood), log_likelihood.dtype)

# the same counts with one vectorised index_put and with bincount
xs, ys = [], []
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1]); ys.append(stoi[ch2])
xs = torch.tensor(xs); ys = torch.tensor(ys)
N2 = torch.zeros((V, V), dtype=torch.int32)
N2.index_put_((xs, ys), torch.ones(len(xs), dtype=torch.int32), accumulate=True)
N3 = torch.bincount(xs * V + ys, minlength=V * V).view(V, V)
print(torch.equal(N, N2), (N3 == N).all(), N3.dtype, xs.nelement())
N4 = torch.zeros((V, V), dtype=torch.int32)
N4[xs, ys] += 1   # duplicate indices: only counted once
print(N4.sum(), N.sum())
# forgetting .float(): sampling straight from the int32 count row
try:
    torch.multinomial(N[0], num_samples=1, replacement=True, generator=g)
except RuntimeError as e:
    print(type(e).__name__, e)
