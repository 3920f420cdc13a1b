# "Let's build GPT: from scratch" notebook: encode/decode, train/val split, get_batch (shapes
# only), the BigramLanguageModel, and the mathematical trick in self-attention (three versions).
import torch
import torch.nn as nn
from torch.nn import functional as F

text = "first citizen: before we proceed any further, hear me speak.\nall: speak, speak.\n"
chars = sorted(list(set(text)))
vocab_size = len(chars)
print(''.join(chars))
print(vocab_size)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: ''.join([itos[i] for i in l])
print(encode("hear me"))
print(decode(encode("hear me")))
data = torch.tensor(encode(text), dtype=torch.long)
print(data.shape, data.dtype)
print(data[:20])
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]
block_size = 8
x = train_data[:block_size]
y = train_data[1:block_size + 1]
for t in range(3):
    context = x[:t + 1]
    target = y[t]
    print(f"when input is {context} the target: {target}")

torch.manual_seed(1337)
batch_size = 4
def get_batch(split):
    data = train_data if split == 'train' else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y
xb, yb = get_batch('train')
print('inputs:', xb.shape, xb.dtype, 'targets:', yb.shape, torch.equal(xb[:, 1:], yb[:, :-1]))


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss


m = BigramLanguageModel(vocab_size)
with torch.no_grad():
    m.token_embedding_table.weight.copy_(torch.cos(torch.arange(vocab_size * vocab_size, dtype=torch.float32)).view(vocab_size, vocab_size))
xb = torch.stack([train_data[i:i + block_size] for i in (0, 10, 20, 30)])
yb = torch.stack([train_data[i + 1:i + block_size + 1] for i in (0, 10, 20, 30)])
logits, loss = m(xb, yb)
print(logits.shape, loss)
print(m(xb)[0].shape, m(xb)[1])
optimizer = torch.optim.AdamW(m.parameters(), lr=1e-3)
for steps in range(20):
    logits, loss = m(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(f"{loss.item():.5f}")
print(decode(m(torch.zeros((1, 1), dtype=torch.long))[0][0, -1].topk(3).indices.tolist()))

# toy example illustrating how matrix multiplication can be used for a "weighted aggregation"
a = torch.tril(torch.ones(3, 3))
a = a / torch.sum(a, 1, keepdim=True)
b = torch.arange(6).view(3, 2).float()
c = a @ b
print('a='); print(a); print('--'); print('b='); print(b); print('--'); print('c='); print(c)

B, T, C = 2, 4, 2
x = torch.sin(torch.arange(B * T * C, dtype=torch.float32)).view(B, T, C)
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xprev = x[b, :t + 1]
        xbow[b, t] = torch.mean(xprev, 0)
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x
print(torch.allclose(xbow, xbow2), xbow2.shape)
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float('-inf'))
wei = F.softmax(wei, dim=-1)
xbow3 = wei @ x
print(torch.allclose(xbow, xbow3), wei)
print(xbow[0])

# single head of self-attention and the 1/sqrt(head_size) scaling
head_size = 4
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
with torch.no_grad():
    for i, lin in enumerate((key, query, value)):
        lin.weight.copy_(torch.linspace(-1, 1, head_size * C).view(head_size, C) * (i + 1))
k, q = key(x), query(x)
wei = q @ k.transpose(-2, -1) * head_size**-0.5
wei = wei.masked_fill(tril == 0, float('-inf'))
wei = F.softmax(wei, dim=-1)
out = wei @ value(x)
print(out.shape, wei[0])
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1))
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1))
