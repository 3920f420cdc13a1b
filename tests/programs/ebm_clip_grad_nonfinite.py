# Gradient clipping in an EBM training step where the contrastive loss can blow up: clip_grad_norm_
# with error_if_nonfinite, foreach=True/False, norm_type=inf/1/3, clip_grad_value_, and the
# returned total norms printed as users do when they log gradient norms.
import math
import torch
import torch.nn as nn


def make():
    net = nn.Sequential(nn.Linear(2, 6), nn.SiLU(), nn.Linear(6, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view_as(p))
    return net


pos = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(1, -1, 8) ** 2], 1)
neg = torch.stack([torch.cos(torch.arange(8.0)), torch.sin(torch.arange(8.0))], 1) * 2


def cd_loss(net, scale=1.0):
    e_pos, e_neg = net(pos), net(neg)
    return scale * (e_pos.mean() - e_neg.mean()) + 0.1 * (e_pos.pow(2).mean() + e_neg.pow(2).mean())


for norm_type in [2.0, 1, 3.0, math.inf, "inf"]:
    for foreach in [None, True, False]:
        net = make()
        cd_loss(net).backward()
        total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.5, norm_type=norm_type, foreach=foreach)
        after = nn.utils.get_total_norm([p.grad for p in net.parameters()], norm_type=norm_type)
        print(norm_type, foreach, f"{total.item():.4f} -> {after.item():.4f}", total.dtype, total.shape)

net = make()
cd_loss(net, scale=float("inf")).backward()
print([bool(torch.isfinite(p.grad).all()) for p in net.parameters()])
try:
    nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(type(e).__name__, e)
total = nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=False)
print("nonfinite total:", total, [p.grad.isnan().sum().item() for p in net.parameters()])

net = make()
cd_loss(net).backward()
before = [p.grad.clone() for p in net.parameters()]
nn.utils.clip_grad_value_(net.parameters(), clip_value=0.05, foreach=True)
print([round(p.grad.abs().max().item(), 4) for p in net.parameters()])
print([bool(torch.equal(b.clamp(-0.05, 0.05), p.grad)) for b, p in zip(before, net.parameters())])

# a single tensor, no grads at all, and an empty list
w = torch.ones(3, requires_grad=True)
(w * torch.tensor([3.0, -4.0, 0.0])).sum().backward()
print(nn.utils.clip_grad_norm_(w, 1.0), w.grad)
print(nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
print(nn.utils.clip_grad_norm_([], 1.0))
opt = torch.optim.SGD(make().parameters(), lr=0.1)
net = make()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(6):
    opt.zero_grad()
    loss = cd_loss(net)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), 0.3, foreach=True)
    opt.step()
    print(step, f"loss {loss.item():.4f} grad_norm {gn.item():.4f}")
