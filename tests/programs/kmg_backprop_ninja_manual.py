# makemore part 4, "becoming a backprop ninja": the forward pass chunked into tiny steps,
# retain_grad() on every intermediate, then the manual backward compared with cmp().
import torch
import torch.nn.functional as F


def cmp(s, dt, t):
    # exactness depends on the last bit of float64 kernels; print whether it is close instead
    ex = torch.all((dt - t.grad).abs() < 1e-15).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff < 1e-12: {maxdiff < 1e-12}')


n_embd, n_hidden, vocab_size, block_size, n = 2, 4, 5, 3, 4
Xb = torch.tensor([[0, 0, 1], [0, 1, 2], [1, 2, 3], [2, 3, 4]])
Yb = torch.tensor([2, 3, 4, 0])
C = torch.linspace(-1, 1, vocab_size * n_embd, dtype=torch.float64).view(vocab_size, n_embd)
W1 = torch.sin(torch.arange(6 * n_hidden, dtype=torch.float64)).view(6, n_hidden) * 0.5
b1 = torch.linspace(-0.1, 0.1, n_hidden, dtype=torch.float64)
W2 = torch.cos(torch.arange(n_hidden * vocab_size, dtype=torch.float64)).view(n_hidden, vocab_size) * 0.3
b2 = torch.linspace(0, 0.2, vocab_size, dtype=torch.float64)
bngain = torch.ones((1, n_hidden), dtype=torch.float64) * 0.9
bnbias = torch.ones((1, n_hidden), dtype=torch.float64) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True

emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1/n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff**2
bnvar = 1/(n-1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5)**-0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h,
          hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani, embcat, emb]:
    t.retain_grad()
loss.backward()
print(loss, logprobs[range(n), Yb])

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0/n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum**-2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h**2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (bnvar + 1e-5)**-1.5) * dbnvar_inv
dbndiff2 = (1.0/(n-1)) * torch.ones_like(bndiff2) * dbnvar
dbndiff += (2 * bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0/n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        ix = Xb[k, j]
        dC[ix] += demb[k, j]

for name, d, t in [('logprobs', dlogprobs, logprobs), ('probs', dprobs, probs),
                   ('counts_sum_inv', dcounts_sum_inv, counts_sum_inv), ('counts_sum', dcounts_sum, counts_sum),
                   ('counts', dcounts, counts), ('norm_logits', dnorm_logits, norm_logits),
                   ('logit_maxes', dlogit_maxes, logit_maxes), ('logits', dlogits, logits), ('h', dh, h),
                   ('W2', dW2, W2), ('b2', db2, b2), ('hpreact', dhpreact, hpreact), ('bngain', dbngain, bngain),
                   ('bnbias', dbnbias, bnbias), ('bnraw', dbnraw, bnraw), ('bnvar_inv', dbnvar_inv, bnvar_inv),
                   ('bnvar', dbnvar, bnvar), ('bndiff2', dbndiff2, bndiff2), ('bndiff', dbndiff, bndiff),
                   ('bnmeani', dbnmeani, bnmeani), ('hprebn', dhprebn, hprebn), ('embcat', dembcat, embcat),
                   ('W1', dW1, W1), ('b1', db1, b1), ('emb', demb, emb), ('C', dC, C)]:
    cmp(name, d, t)

# exercise 2: the fused cross-entropy backward
loss_fast = F.cross_entropy(logits, Yb)
print(loss_fast.item(), 'diff:', (loss_fast - loss).item())
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
cmp('logits', dlogits, logits)
print(logits.shape, Yb.shape, dlogits.sum(1).abs().max() < 1e-12, dlogits.dtype)
print(logit_maxes.grad.abs().max() < 1e-12, logits.max(1))
