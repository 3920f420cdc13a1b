# The GAN training mistakes people ask about on Q&A sites, each caught and printed:
# reusing D's output after optimizerD.step() (the in-place "modified by an inplace operation"
# error), backward twice through G without retain_graph, forgetting .detach() (G gets grads from
# the D step), float64 labels, wrong label shape, BCELoss saturating at 100, zero_grad placement.
import numpy as np
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 6), nn.ReLU(), nn.Linear(6, 3))
D = nn.Sequential(nn.Linear(3, 6), nn.LeakyReLU(0.2), nn.Linear(6, 1), nn.Sigmoid())
with torch.no_grad():
    for i, p in enumerate(list(G.parameters()) + list(D.parameters())):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.7)
optD = torch.optim.Adam(D.parameters(), lr=1e-3)
optG = torch.optim.Adam(G.parameters(), lr=1e-3)
criterion = nn.BCELoss()
z = torch.linspace(-1, 1, 8).view(4, 2)
real = torch.cos(torch.arange(12, dtype=torch.float32)).view(4, 3)
ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)

# 1) computing G's loss from the D output that was produced before optD.step()
fake = G(z)
d_fake = D(fake)
lossD = criterion(D(real), ones) + criterion(d_fake, zeros)
optD.zero_grad()
lossD.backward(retain_graph=True)
optD.step()
lossG = criterion(d_fake, ones)
try:
    lossG.backward()
except RuntimeError as e:
    print("1:", type(e).__name__, e)

# 2) backward through the generator graph twice
fake = G(z)
criterion(D(fake), zeros).backward()
try:
    criterion(D(fake), ones).backward()
except RuntimeError as e:
    print("2:", type(e).__name__, e)

# 3) forgetting detach: the D step also fills G's gradients
G.zero_grad(set_to_none=True)
fake = G(z)
criterion(D(fake), zeros).backward()
print("3: G grad set:", G[0].weight.grad is not None, G[2].bias.grad)
G.zero_grad(set_to_none=True)
criterion(D(fake.detach()), zeros).backward()
print("3: with detach:", G[0].weight.grad)

# 4) labels built with numpy are float64
labels = torch.from_numpy(np.ones((4, 1)))
print("4:", labels.dtype)
try:
    criterion(D(real), labels)
except RuntimeError as e:
    print("4:", type(e).__name__, e)
try:
    nn.MSELoss()(D(real), labels).backward()
except RuntimeError as e:
    print("4:", type(e).__name__, e)
print("4:", nn.MSELoss()(D(real), labels).dtype)

# 5) label shape (4,) vs output (4, 1)
try:
    criterion(D(real), torch.ones(4))
except ValueError as e:
    print("5:", type(e).__name__, e)
print("5:", criterion(D(real).squeeze(1), torch.ones(4)).shape, criterion(D(real).view(-1), torch.ones(4)).item() > 0)

# 6) a perfectly confident D: BCELoss clamps log at -100
out = torch.tensor([[1.0], [0.0], [0.999999]], requires_grad=True)
loss = criterion(out, torch.tensor([[0.0], [1.0], [1.0]]))
loss.backward()
print("6:", loss, out.grad.view(-1))
print("6:", nn.BCELoss(reduction='none')(torch.tensor([1.0, 1e-30]), torch.tensor([0.0, 1.0])))

# 7) optimizer.step() on a parameter with no grad and the in-place leaf error
optG.zero_grad(set_to_none=True)
optG.step()
print("7:", G[0].weight.grad, optG.state_dict()['state'])
try:
    for p in D.parameters():
        p.clamp_(-0.01, 0.01)
except RuntimeError as e:
    print("7:", type(e).__name__, e)
with torch.no_grad():
    for p in D.parameters():
        p.clamp_(-0.01, 0.01)
print("7:", D[2].weight)
