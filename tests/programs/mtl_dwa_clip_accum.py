# Dynamic Weight Average (Liu et al. 2019) with per-task gradient clipping utilities: task weights
# from the ratio of recent losses through a temperature softmax, gradient accumulation over
# micro-batches, clip_grad_norm_ (error_if_nonfinite, foreach), clip_grad_value_, get_total_norm.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.ModuleDict({
    "trunk": nn.Sequential(nn.Linear(2, 8), nn.ELU(), nn.Linear(8, 8), nn.ELU()),
    "depth": nn.Linear(8, 1),
    "seg": nn.Linear(8, 3),
})
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.45)

N = 24
x = torch.stack([torch.linspace(-2, 2, N), torch.cos(torch.linspace(0, 5, N))], 1)
depth_t = x[:, 0] ** 2 / 4
seg_t = torch.bucketize(x[:, 1], torch.tensor([-0.3, 0.4]))
print("seg counts:", torch.bincount(seg_t).tolist())

opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
T = 2.0
history = []
K = 2
for epoch in range(8):
    if len(history) < 2:
        lam = torch.ones(K)
    else:
        w = torch.tensor(history[-1]) / torch.tensor(history[-2])
        lam = K * F.softmax(w / T, dim=0)
    opt.zero_grad()
    epoch_losses = torch.zeros(K)
    for mb in torch.arange(N).chunk(3):
        h = net["trunk"](x[mb])
        l_depth = F.smooth_l1_loss(net["depth"](h).squeeze(1), depth_t[mb])
        l_seg = F.cross_entropy(net["seg"](h), seg_t[mb], label_smoothing=0.1)
        ((lam[0] * l_depth + lam[1] * l_seg) / 3).backward()
        epoch_losses += torch.stack([l_depth, l_seg]).detach() / 3
    total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0, foreach=True)
    opt.step()
    history.append(epoch_losses.tolist())
    print(f"epoch {epoch} lambda {[round(v, 4) for v in lam.tolist()]} "
          f"losses {[round(v, 4) for v in epoch_losses.tolist()]} pre-clip norm {total.item():.4f}")

grads = [p.grad for p in net.parameters()]
print("get_total_norm:", f"{nn.utils.get_total_norm(grads).item():.4f}",
      f"{nn.utils.get_total_norm(grads, norm_type='inf').item():.4f}",
      f"{nn.utils.get_total_norm(grads, norm_type=1.0).item():.4f}")
nn.utils.clip_grads_with_norm_(net["seg"].parameters(), 0.1, nn.utils.get_total_norm([p.grad for p in net["seg"].parameters()]))
print("seg norm after clip_grads_with_norm_:", f"{nn.utils.get_total_norm([p.grad for p in net['seg'].parameters()]).item():.4f}")
nn.utils.clip_grad_value_(net["depth"].parameters(), 0.01)
print("depth grad max:", net["depth"].weight.grad.abs().max().item())
inf_norm = nn.utils.clip_grad_norm_(net["trunk"].parameters(), 1.0, norm_type=math.inf)
print("inf norm:", f"{inf_norm.item():.4f}")
net["depth"].bias.grad.fill_(float("nan"))
try:
    nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", e)
print(nn.utils.clip_grad_norm_([], 1.0))
print(nn.utils.clip_grad_norm_(torch.zeros(2, requires_grad=True), 1.0))
