# The "Sequence Models and LSTM Networks" tutorial idiom applied to a series: feed a sequence one
# element at a time through nn.LSTM carrying (h, c), then all at once, printing the output and
# hidden-state tensors (with their grad_fn) and comparing; stateful mini-batches with detached
# states between windows (truncated BPTT) and a learnable initial state.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
lstm = nn.LSTM(2, 3)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).reshape(p.shape))
inputs = [torch.tensor([[0.1 * k, 1 - 0.2 * k]]) for k in range(5)]
hidden = (torch.zeros(1, 1, 3), torch.zeros(1, 1, 3))
for x in inputs:
    out, hidden = lstm(x.view(1, 1, -1), hidden)
print(out)
print(hidden)

seq = torch.cat(inputs).view(len(inputs), 1, -1)
hidden0 = (torch.zeros(1, 1, 3), torch.zeros(1, 1, 3))
out_all, hidden_all = lstm(seq, hidden0)
print(out_all)
print(hidden_all)
print(torch.allclose(out_all[-1], out[0]), torch.allclose(hidden_all[1], hidden[1]))
print(out_all.grad_fn, hidden_all[0].grad_fn)
print([type(f).__name__ if f is not None else None for f, _ in out_all.grad_fn.next_functions])

# truncated BPTT over a long series, states detached between windows
series = torch.sin(torch.arange(40, dtype=torch.float32) * 0.3)
feats = torch.stack([series, torch.cos(torch.arange(40, dtype=torch.float32) * 0.3)], -1)
head = nn.Linear(3, 1)
with torch.no_grad():
    head.weight.copy_(torch.tensor([[0.3, -0.2, 0.5]]))
    head.bias.zero_()
opt = torch.optim.SGD(list(lstm.parameters()) + list(head.parameters()), lr=0.1)
for epoch in range(3):
    state = None
    total = 0.0
    for start in range(0, 36, 6):
        x = feats[start:start + 6].unsqueeze(1)
        y = series[start + 1:start + 7].view(6, 1, 1)
        out, state = lstm(x, state)
        loss = nn.functional.mse_loss(head(out), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        state = tuple(s.detach() for s in state)
        total += loss.item()
    print(f"epoch {epoch} loss {total / 6:.5f} state grad_fn {state[0].grad_fn}")

# learnable initial state broadcast over the batch
h0 = nn.Parameter(torch.full((1, 1, 3), 0.1))
c0 = nn.Parameter(torch.zeros(1, 1, 3))
batch = feats[:8].view(2, 4, 2).transpose(0, 1)
out, (h, c) = lstm(batch, (h0.expand(-1, 2, -1).contiguous(), c0.expand(-1, 2, -1).contiguous()))
out.pow(2).sum().backward()
print(out.shape, h0.grad, c0.grad)
print(lstm.weight_hh_l0.grad.norm())
with torch.no_grad():
    out, (h, c) = lstm(batch)
print(out.requires_grad, out.grad_fn, h)
