# Orthogonal recurrent weights on a built-in nn.RNN/nn.LSTM via parametrizations.orthogonal on
# "weight_hh_l0" (the expRNN / "orthogonal RNN" idiom): the recurrence sees the parametrized
# weight, stays orthogonal while training, and state_dict/remove behave as for Linear.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal

torch.set_printoptions(precision=3)


class Zero(nn.Module):
    def forward(self, X):
        return torch.zeros_like(X)


rnn = nn.RNN(3, 4, batch_first=True, nonlinearity="tanh")
head = nn.Linear(4, 1)
with torch.no_grad():
    for i, p in enumerate(list(rnn.parameters()) + list(head.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) ** 1.7 + i).view_as(p) * 0.5)

x = torch.sin(torch.arange(4 * 6 * 3, dtype=torch.float32) * 0.3).view(4, 6, 3)
y = x.sum((1, 2)).unsqueeze(1) * 0.1

orthogonal(rnn, "weight_hh_l0")
print(type(rnn).__name__, rnn._flat_weights_names)
print(sorted(rnn.state_dict().keys()))
W = rnn.weight_hh_l0
print(f"{(W @ W.T - torch.eye(4)).abs().max().item() < 1e-5}")

params = list(rnn.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.05)
for step in range(10):
    opt.zero_grad()
    out, h = rnn(x)
    loss = F.mse_loss(head(h[-1]), y)
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.3f}")
W = rnn.weight_hh_l0
print("still orthogonal:", (W @ W.T - torch.eye(4)).abs().max().item() < 1e-4)
print(rnn.parametrizations.weight_hh_l0.original.grad.shape, rnn.weight_ih_l0.grad.shape)

lstm = nn.LSTM(2, 3)
for name in ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]:
    P.register_parametrization(lstm, name, Zero())
out, (h, c) = lstm(torch.ones(4, 1, 2))
print("all-zero LSTM:", out.abs().sum().item(), c.abs().sum().item())
print(len(list(lstm.parameters())), sorted(n.split(".")[1] for n, _ in lstm.named_parameters()))
P.remove_parametrizations(lstm, "weight_hh_l0", leave_parametrized=False)
print(sorted(lstm.state_dict().keys())[-1], P.is_parametrized(lstm), P.is_parametrized(lstm, "weight_hh_l0"))

P.remove_parametrizations(rnn, "weight_hh_l0")
print(type(rnn).__name__, sorted(rnn.state_dict().keys()))
with torch.no_grad():
    print(f"{F.mse_loss(head(rnn(x)[1][-1]), y).item():.3f}")
