# makemore part 2 (Bengio MLP): build the dataset with a context window, embed with C[X],
# concatenate with view/cat/unbind, cross_entropy, a learning-rate sweep with 10**lre.
import torch
import torch.nn.functional as F

words = ['emma', 'olivia', 'ava', 'isabella', 'sophia']
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab = len(stoi)

block_size = 3
X, Y = [], []
for w in words[:2]:
    context = [0] * block_size
    for ch in w + '.':
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        print(''.join(itos[i] for i in context), '--->', itos[ix])
        context = context[1:] + [ix]
X = torch.tensor(X)
Y = torch.tensor(Y)
print(X.shape, X.dtype, Y.shape, Y.dtype)

C = (torch.arange(vocab * 2, dtype=torch.float32).view(vocab, 2) / 10 - 0.7)
print(C[5], F.one_hot(torch.tensor(5), num_classes=vocab).float() @ C)
print(F.one_hot(torch.tensor(5), num_classes=vocab).dtype)
emb = C[X]
print(emb.shape, C[X][4, 2], C[[5, 6, 7]], C[torch.tensor([5, 6, 7, 7, 7])].shape)
a = torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1)
b = torch.cat(torch.unbind(emb, 1), 1)
c = emb.view(-1, 6)
print(a.shape, torch.equal(a, b), (a == c).all(), emb.view(emb.shape[0], 6).shape)
t = torch.arange(18)
print(t.view(2, 9), t.view(3, 3, 2).shape, t.view(3, 6)[1:].storage_offset())

W1 = torch.linspace(-1, 1, 6 * 10).view(6, 10)
b1 = torch.linspace(-0.1, 0.1, 10)
W2 = torch.cos(torch.arange(10 * vocab, dtype=torch.float32)).view(10, vocab) * 0.5
b2 = torch.zeros(vocab)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(h.shape, (emb.view(-1, 6) @ W1).shape, b1.shape)
logits = h @ W2 + b2
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
print(prob.shape, f"{prob[0].sum().item():.4f}")  # (exactly 1 or one ulp off: exp's last bit decides)
loss_manual = -prob[torch.arange(X.shape[0]), Y].log().mean()
loss = F.cross_entropy(logits, Y)
print(loss_manual, loss)
print(torch.allclose(loss_manual, loss))
big = torch.tensor([-100., -3., 0., 100.])
print(big.exp(), F.cross_entropy(big.unsqueeze(0), torch.tensor([3])))
print((big - big.max()).exp() / (big - big.max()).exp().sum())

lre = torch.linspace(-3, 0, 7)
lrs = 10**lre
print(lre)
print(lrs)
lri, lossi = [], []
for i in range(7):
    emb = C[X]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y)
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = lrs[i]
    for p in parameters:
        p.data += -lr * p.grad
    lri.append(lre[i]); lossi.append(loss.item())
print(['%.4f' % l for l in lossi])
print(lri[2], type(lri[0]), C.grad.shape, C.grad[0])
print(torch.tensor(lossi).argmin(), torch.stack(lri).dtype)
with torch.no_grad():
    emb = C[X]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    print(F.cross_entropy(h @ W2 + b2, Y).item() < lossi[0], h.requires_grad)
# the lecture's look at the underlying storage: view() never copies
print(t.storage().size(), t.view(3, 3, 2).storage().size(), t.untyped_storage().nbytes())
