# Train with nn.LSTM over whole windows, then decode step by step with an nn.LSTMCell that takes
# the trained layer's weights (weight_ih_l0 -> weight_ih ...), a common trick for fast
# autoregressive forecasting; also GRU -> GRUCell, and checking the two agree, with the
# parameter-name mapping printed and a load_state_dict error for mismatched names.
import torch
import torch.nn as nn

torch.set_printoptions(precision=5)


def fill(m, s=0.35):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(s * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.59 + i).reshape(p.shape))
    return m


lstm = fill(nn.LSTM(1, 6, batch_first=True))
head = fill(nn.Linear(6, 1))
t = torch.arange(48, dtype=torch.float32)
s = torch.sin(0.35 * t)
X = s.unfold(0, 9, 3)
inp, tgt = X[:, :-1].unsqueeze(-1), X[:, 1:].unsqueeze(-1)
opt = torch.optim.RMSprop(list(lstm.parameters()) + list(head.parameters()), lr=0.005)
for step in range(12):
    opt.zero_grad()
    out, _ = lstm(inp)
    loss = nn.functional.mse_loss(head(out), tgt)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.5f}")

cell = nn.LSTMCell(1, 6)
mapping = {k: k.replace("_l0", "") for k in lstm.state_dict()}
print(mapping)
print(cell.load_state_dict({mapping[k]: v for k, v in lstm.state_dict().items()}))
try:
    cell.load_state_dict(lstm.state_dict())
except RuntimeError as e:
    print(str(e).splitlines()[0])
    print("Missing" in str(e), "Unexpected" in str(e))

with torch.no_grad():
    seq_out, (h_n, c_n) = lstm(inp[:2])
    h = torch.zeros(2, 6)
    c = torch.zeros(2, 6)
    steps = []
    for k in range(inp.shape[1]):
        h, c = cell(inp[:2, k], (h, c))
        steps.append(h)
    cell_out = torch.stack(steps, 1)
    print(torch.allclose(cell_out, seq_out, atol=1e-6), torch.allclose(c, c_n[0], atol=1e-6))
    print(seq_out[0, -1], h_n[0, 0])
    x_last = inp[:2, -1]
    preds = []
    for k in range(5):
        h, c = cell(x_last, (h, c))
        x_last = head(h)
        preds.append(x_last.squeeze(-1))
    print(torch.stack(preds, 1))

gru = fill(nn.GRU(2, 4))
gcell = nn.GRUCell(2, 4)
gcell.load_state_dict({k[:-3]: v for k, v in gru.state_dict().items()})
xs = torch.cos(torch.arange(10, dtype=torch.float32)).reshape(5, 1, 2)
go, gh = gru(xs)
hh = torch.zeros(1, 4)
for k in range(5):
    hh = gcell(xs[k], hh)
print(torch.allclose(hh, gh[0], atol=1e-6), go[-1])
print(gh.grad_fn, go.grad_fn, hh.grad_fn)
