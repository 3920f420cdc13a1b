# Deep mutual learning (two peer students teach each other with KL on softened outputs), plus
# the per-sample losses users print to debug it: kl_div / cross_entropy with reduction='none',
# ignore_index rows and sparse (one-hot, exact zero) targets that require grad.
import torch
import torch.nn as nn
import torch.nn.functional as F


def make(width, scale):
    net = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 4))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(scale * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p))
    return net


x = torch.stack([torch.linspace(-1, 1, 20), torch.cos(torch.arange(20.0)), torch.sin(torch.arange(20.0) / 3)], 1)
y = torch.tensor([i % 4 for i in range(20)])
y[::7] = -100  # unlabeled rows
nets = [make(8, 0.4), make(6, 0.5)]
opts = [torch.optim.SGD(n.parameters(), lr=0.2, momentum=0.9) for n in nets]
T = 2.0
for step in range(15):
    logits = [n(x) for n in nets]
    losses = []
    for k in range(2):
        peer = F.softmax(logits[1 - k].detach() / T, dim=1)
        kl = F.kl_div(F.log_softmax(logits[k] / T, dim=1), peer, reduction="batchmean") * T * T
        ce = F.cross_entropy(logits[k], y, ignore_index=-100)
        losses.append(ce + kl)
    for opt, loss in zip(opts, losses):
        opt.zero_grad()
    sum(losses).backward()
    for opt in opts:
        opt.step()
    if step % 3 == 0:
        print(step, [f"{l.item():.4f}" for l in losses])

with torch.no_grad():
    out = nets[0](x[:8])
    per_row = F.cross_entropy(out, y[:8], reduction="none")
    print(per_row)
    print(F.nll_loss(F.log_softmax(out, 1), y[:8], reduction="none"))
    print(F.cross_entropy(out, y[:8], reduction="none", label_smoothing=0.1))

# label distribution with exact zeros, learnable mixing weight
mix = torch.tensor(0.0, requires_grad=True)
one_hot = F.one_hot(torch.tensor([0, 2, 1]), 4).float()
prior = torch.tensor([0.1, 0.2, 0.3, 0.4])
target = (1 - mix.sigmoid() * 0) * one_hot + mix * prior
log_p = F.log_softmax(torch.tensor([[2.0, 0.5, -1.0, 0.1], [0.3, 0.2, 1.5, -0.4], [0.0, 1.0, 0.0, -1.0]]), 1)
pointwise = F.kl_div(log_p, target, reduction="none")
print(pointwise)
loss = pointwise.sum(1).mean()
loss.backward()
print(f"{loss.item():.5f}", mix.grad)
t2 = one_hot.clone().requires_grad_(True)
l2 = F.kl_div(log_p, t2, reduction="sum")
l2.backward()
print(t2.grad)
t3 = torch.tensor([[0.5, 0.5, 0.0, 0.0]], requires_grad=True)
F.kl_div(log_p[:1], t3.log(), reduction="sum", log_target=True).backward()
print(t3.grad)
