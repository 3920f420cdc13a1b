# karpathy/makemore makemore.py: CharDataset with -1 masked targets, the MLP model with
# torch.roll + a blank token, RNN / GRU cells unrolled with a learned start state, the causal
# bag-of-words, InfiniteDataLoader's RandomSampler, and evaluate() under @torch.inference_mode().
import math

import torch
import torch.nn as nn
from torch.nn import functional as F
from torch.utils.data import Dataset, DataLoader


class CharDataset(Dataset):
    def __init__(self, words, chars, max_word_length):
        self.words, self.chars, self.max_word_length = words, chars, max_word_length
        self.stoi = {ch: i + 1 for i, ch in enumerate(chars)}
        self.itos = {i: s for s, i in self.stoi.items()}

    def __len__(self):
        return len(self.words)

    def contains(self, word):
        return word in self.words

    def get_vocab_size(self):
        return len(self.chars) + 1

    def get_output_length(self):
        return self.max_word_length + 1

    def encode(self, word):
        return torch.tensor([self.stoi[w] for w in word], dtype=torch.long)

    def decode(self, ix):
        return ''.join(self.itos[i] for i in ix)

    def __getitem__(self, idx):
        word = self.words[idx]
        ix = self.encode(word)
        x = torch.zeros(self.max_word_length + 1, dtype=torch.long)
        y = torch.zeros(self.max_word_length + 1, dtype=torch.long)
        x[1:1 + len(ix)] = ix
        y[:len(ix)] = ix
        y[len(ix) + 1:] = -1
        return x, y


words = ['emma', 'ava', 'mia', 'amelia', 'liam']
chars = sorted(list(set(''.join(words))))
ds = CharDataset(words, chars, max(len(w) for w in words))
print(f"number of examples in the dataset: {len(words)}", f"vocab size: {ds.get_vocab_size()}", ds.get_output_length())
x, y = ds[3]
print(x, y)
print(ds.decode(x[1:].tolist()[:6]), ds.contains('ava'))
sampler = torch.utils.data.RandomSampler(ds, replacement=True, num_samples=int(1e10))
loader = DataLoader(ds, sampler=sampler, batch_size=2)
print(len(sampler), type(iter(loader)).__name__)
X, Y = next(iter(loader))
print(X.shape, Y.shape, X.dtype)
V, E, T = ds.get_vocab_size(), 3, ds.get_output_length()


class MLP(nn.Module):
    def __init__(self, block_size=3):
        super().__init__()
        self.block_size, self.vocab_size = block_size, V
        self.wte = nn.Embedding(V + 1, E)
        self.mlp = nn.Sequential(nn.Linear(block_size * E, 8), nn.Tanh(), nn.Linear(8, V))

    def forward(self, idx, targets=None):
        embs = []
        for k in range(self.block_size):
            tok_emb = self.wte(idx)
            idx = torch.roll(idx, 1, 1)
            idx[:, 0] = self.vocab_size
            embs.append(tok_emb)
        x = torch.cat(embs, -1)
        logits = self.mlp(x)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss


class GRUCell(nn.Module):
    def __init__(self, n_embd, n_embd2):
        super().__init__()
        self.xh_to_z = nn.Linear(n_embd + n_embd2, n_embd2)
        self.xh_to_r = nn.Linear(n_embd + n_embd2, n_embd2)
        self.xh_to_hbar = nn.Linear(n_embd + n_embd2, n_embd2)

    def forward(self, xt, hprev):
        xh = torch.cat([xt, hprev], dim=1)
        r = F.sigmoid(self.xh_to_r(xh))
        hprev_reset = r * hprev
        xhr = torch.cat([xt, hprev_reset], dim=1)
        hbar = F.tanh(self.xh_to_hbar(xhr))
        z = F.sigmoid(self.xh_to_z(xh))
        return (1 - z) * hprev + z * hbar


class RNN(nn.Module):
    def __init__(self, n_embd2=4):
        super().__init__()
        self.start = nn.Parameter(torch.zeros(1, n_embd2))
        self.wte = nn.Embedding(V, E)
        self.cell = GRUCell(E, n_embd2)
        self.lm_head = nn.Linear(n_embd2, V)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        emb = self.wte(idx)
        hprev = self.start.expand((b, -1))
        hiddens = []
        for i in range(t):
            hprev = self.cell(emb[:, i, :], hprev)
            hiddens.append(hprev)
        hidden = torch.stack(hiddens, 1)
        logits = self.lm_head(hidden)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss


def det_init(m):
    for i, p in enumerate(m.parameters(recurse=False)):
        with torch.no_grad():
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.4)


X = torch.stack([ds[i][0] for i in range(4)])
Y = torch.stack([ds[i][1] for i in range(4)])
for model in (MLP(), RNN()):
    model.apply(det_init)
    print(f"model #params: {sum(p.numel() for p in model.parameters())}")
    logits, loss = model(X.clone(), Y)
    loss.backward()
    print(type(model).__name__, logits.shape, loss, logits.grad_fn.name())
    print([n for n, p in model.named_parameters() if p.grad is None], model.wte.weight.grad.abs().sum(1))
print(model.start.grad, model.start.expand((3, -1)).stride(), model.start.expand((3, -1)).is_contiguous())

# CausalBoW: average of the past by masked softmax over zeros
bias = torch.tril(torch.ones(T, T)).view(1, T, T)
xb = torch.arange(2 * T * 2, dtype=torch.float32).view(2, T, 2)
att = torch.zeros((2, T, T))
att = att.masked_fill(bias[:, :T, :T] == 0, float('-inf'))
att = F.softmax(att, dim=-1)
print((att @ xb)[0, :3], att[0, 2])

@torch.inference_mode()
def evaluate(model, dataset, batch_size=2, max_batches=None):
    model.eval()
    loader = DataLoader(dataset, shuffle=False, batch_size=batch_size, num_workers=0)
    losses = []
    for i, batch in enumerate(loader):
        X, Y = batch
        logits, loss = model(X, Y)
        losses.append(loss.item())
        if max_batches is not None and i >= max_batches:
            break
    mean_loss = torch.tensor(losses).mean().item()
    model.train()
    return mean_loss, len(losses), loss.is_inference()
print('%.4f %d %s' % evaluate(model, ds))

# greedy generation as in makemore's generate(do_sample=False)
idx = torch.zeros(2, 1, dtype=torch.long)
mlp = MLP(); mlp.apply(det_init)
with torch.no_grad():
    for _ in range(4):
        logits, _ = mlp(idx.clone())
        probs = F.softmax(logits[:, -1, :], dim=-1)
        _, idx_next = torch.topk(probs, k=1, dim=-1)
        idx = torch.cat((idx, idx_next), dim=1)
row = idx[0, 1:].tolist()
crop_index = row.index(0) if 0 in row else len(row)
print(idx, ds.decode(row[:crop_index]))
