# Truncated backpropagation through time as in the word-language-model example: one long stream
# batchified into columns, an nn.LSTM stepped over bptt-sized chunks, repackage_hidden() detaching
# (h, c) between chunks, what goes wrong without it (backward through a freed graph), plus
# inspecting vanishing gradients through time with retain_grad() on per-step RNNCell states and
# clip_grad_value_.
import torch
import torch.nn as nn


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[: nbatch * bsz].view(bsz, -1).t().contiguous()


stream = torch.arange(26) % 7
data = batchify(stream, 3)
print(data.shape, data[:, 0], data.is_contiguous())

emb = nn.Embedding(7, 3)
lstm = nn.LSTM(3, 4)
head = nn.Linear(4, 7)
params = list(emb.parameters()) + list(lstm.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_(torch.linspace(-0.6, 0.6, p.numel()).reshape(p.shape).roll(2 * i))
opt = torch.optim.SGD(params, lr=0.5)
hidden = (torch.zeros(1, 3, 4), torch.zeros(1, 3, 4))
bptt = 3
for i in range(0, data.size(0) - 1, bptt):
    seq_len = min(bptt, data.size(0) - 1 - i)
    x, y = data[i:i + seq_len], data[i + 1:i + 1 + seq_len].reshape(-1)
    hidden = repackage_hidden(hidden)
    print(i, hidden[0].requires_grad, hidden[0].grad_fn, x.shape)
    opt.zero_grad()
    out, hidden = lstm(emb(x), hidden)
    loss = nn.functional.cross_entropy(head(out).view(-1, 7), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 0.25)
    opt.step()
    print(f"  loss {loss.item():.4f} h_n grad_fn {hidden[0].grad_fn.name()}")

# Forgetting to detach: the second backward goes through the first chunk's freed graph.
hidden = (torch.zeros(1, 3, 4), torch.zeros(1, 3, 4))
try:
    for i in range(2):
        out, hidden = lstm(emb(data[i * 2:i * 2 + 2]), hidden)
        out.sum().backward()
        print("chunk", i, "ok")
except RuntimeError as e:
    print(type(e).__name__, str(e).split(".")[0])

# Gradient of the last output w.r.t. each hidden state of an unrolled RNNCell.
cell = nn.RNNCell(2, 3)
with torch.no_grad():
    cell.weight_ih.copy_(torch.linspace(-1, 1, 6).reshape(3, 2))
    cell.weight_hh.copy_(torch.linspace(-0.5, 0.5, 9).reshape(3, 3))
    cell.bias_ih.fill_(0.1)
    cell.bias_hh.zero_()
xs = torch.linspace(-1, 1, 12).reshape(6, 1, 2)
h = torch.zeros(1, 3)
states = []
for t in range(6):
    h = cell(xs[t], h)
    h.retain_grad()
    states.append(h)
states[-1].sum().backward()
for t, s in enumerate(states):
    print(t, f"{s.grad.norm().item():.5f}" if s.grad is not None else None, s.grad_fn.name())
torch.nn.utils.clip_grad_value_(cell.parameters(), 0.3)
print(cell.weight_hh.grad, cell.bias_ih.grad)
