# Hand-unrolled recurrent models: a compiled single-step function built on nn.LSTMCell / nn.GRUCell
# called in a Python loop over time steps (truncated BPTT with detach of the hidden state),
# and a compiled module whose forward loops over the sequence itself.
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * scale)


cell = nn.LSTMCell(3, 5)
head = nn.Linear(5, 1)
fill(cell)
fill(head)


@torch.compile
def step(x_t, h, c):
    h, c = cell(x_t, (h, c))
    return head(h), h, c


T, B = 12, 4
t = torch.arange(T, dtype=torch.float32).unsqueeze(1)
seq = torch.stack([torch.sin(0.5 * t + k) for k in range(3)], dim=-1).expand(T, B, 3) * torch.linspace(0.5, 1, B).view(1, B, 1)
target = seq[..., :1].roll(-1, dims=0)

opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=0.02)
for epoch in range(4):
    h = torch.zeros(B, 5)
    c = torch.zeros(B, 5)
    total = 0.0
    for chunk in range(0, T, 4):  # truncated BPTT with chunks of 4 steps
        h, c = h.detach(), c.detach()
        loss = 0.0
        for i in range(chunk, chunk + 4):
            y, h, c = step(seq[i], h, c)
            loss = loss + F.mse_loss(y, target[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.4f}")
print("h", h.shape, h.requires_grad, type(h.grad_fn).__name__ if h.grad_fn else None)


class GRULoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 4)
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        h = x.new_zeros(x.size(1), 4)
        outs = []
        for x_t in x.unbind(0):
            h = self.cell(x_t, h)
            outs.append(h)
        return self.out(torch.stack(outs)), h


m = GRULoop()
fill(m, 0.25)
cm = torch.compile(m)
out, hT = cm(seq[:6])
ref, _ = m(seq[:6])
print(out.shape, hT.shape, torch.allclose(out, ref, atol=1e-5))
print(torch.round(hT, decimals=4))
out.sum().backward()
print("cell grad", torch.round(m.cell.weight_hh.grad.sum(dim=1), decimals=4))
