# A char-level LSTM language model in the style of the classic "char-rnn in PyTorch" blog posts:
# vocabulary from sorted(set(text)), one-hot or Embedding inputs, a 2-layer batch_first nn.LSTM,
# Linear head, CrossEntropyLoss over the flattened (batch*seq, vocab) logits, truncated BPTT
# with hidden-state detaching, gradient clipping, and greedy generation.
import torch
import torch.nn as nn
import torch.nn.functional as F

text = "hello world, hello lstm. "
chars = tuple(sorted(set(text)))
int2char = dict(enumerate(chars))
char2int = {ch: ii for ii, ch in int2char.items()}
encoded = torch.tensor([char2int[ch] for ch in text])
print(len(chars), chars[:5], encoded[:10])


def get_batches(arr, batch_size, seq_length):
    n_batches = len(arr) // (batch_size * seq_length)
    arr = arr[:n_batches * batch_size * seq_length].reshape(batch_size, -1)
    for n in range(0, arr.shape[1], seq_length):
        x = arr[:, n:n + seq_length]
        y = torch.roll(arr, -1, dims=1)[:, n:n + seq_length]
        yield x, y


class CharRNN(nn.Module):
    def __init__(self, n_chars, n_hidden=6, n_layers=2):
        super().__init__()
        self.n_layers, self.n_hidden = n_layers, n_hidden
        self.lstm = nn.LSTM(n_chars, n_hidden, n_layers, dropout=0.0, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_chars)

    def forward(self, x, hidden):
        r_output, hidden = self.lstm(x, hidden)
        out = r_output.contiguous().view(-1, self.n_hidden)
        return self.fc(out), hidden

    def init_hidden(self, batch_size):
        weight = next(self.parameters()).data
        return (weight.new(self.n_layers, batch_size, self.n_hidden).zero_(),
                weight.new(self.n_layers, batch_size, self.n_hidden).zero_())


net = CharRNN(len(chars))
with torch.no_grad():
    for i, (name, p) in enumerate(net.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.43 + i).view(p.shape) * 0.4)
print(net, [(n, tuple(p.shape)) for n, p in net.named_parameters()][:4])
opt = torch.optim.Adam(net.parameters(), lr=0.02)
criterion = nn.CrossEntropyLoss()
batch_size, seq_length = 2, 6
for e in range(3):
    h = net.init_hidden(batch_size)
    print(type(h).__name__, h[0].shape, h[0].dtype, h[0].requires_grad)
    for step, (x, y) in enumerate(get_batches(encoded, batch_size, seq_length)):
        inputs = F.one_hot(x, len(chars)).float()
        h = tuple([each.data for each in h])
        net.zero_grad()
        output, h = net(inputs, h)
        loss = criterion(output, y.reshape(batch_size * seq_length).long())
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5)
        opt.step()
    print(f"Epoch {e + 1} Step {step + 1} Loss {loss.item():.4f} out {tuple(output.shape)} h.grad_fn {h[0].grad_fn.name()}")
print(net.lstm.weight_ih_l1.grad[:2], net.fc.bias)


def predict(net, char, h=None):
    x = F.one_hot(torch.tensor([[char2int[char]]]), len(chars)).float()
    out, h = net(x, h)
    p = F.softmax(out, dim=1).data
    top_p, top_ch = p.topk(3)
    return int2char[top_ch[0, 0].item()], h, top_p


net.eval()
with torch.no_grad():
    h = net.init_hidden(1)
    chars_out = list("hel")
    for ch in chars_out:
        char, h, top_p = predict(net, ch, h)
    chars_out.append(char)
    for ii in range(8):
        char, h, top_p = predict(net, chars_out[-1], h)
        chars_out.append(char)
print(repr(''.join(chars_out)), top_p, h[1][-1])

# the same loss, written with an Embedding front-end and per-timestep logits
emb = nn.Embedding(len(chars), len(chars))
with torch.no_grad():
    emb.weight.copy_(torch.eye(len(chars)))
x, y = next(get_batches(encoded, batch_size, seq_length))
logits, _ = net(emb(x), None)
l1 = criterion(logits, y.flatten())
l2 = F.cross_entropy(logits.view(batch_size, seq_length, -1).transpose(1, 2), y)
print(l1.item() == l2.item() or torch.allclose(l1, l2), l1.grad_fn.name(), logits.view(batch_size, seq_length, -1).transpose(1, 2).shape)
