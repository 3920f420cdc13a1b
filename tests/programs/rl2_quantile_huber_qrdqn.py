# QR-DQN / IQN quantile Huber loss: pairwise TD errors via broadcasting (B, N, 1) - (B, 1, N),
# F.huber_loss / smooth_l1_loss with reduction='none' on expanded shapes, |tau - 1{u<0}| weights,
# sum over one axis and mean over another; C51-style projection with clamp/floor/ceil/index_add_.
import torch
import torch.nn.functional as F

B, N, kappa = 3, 5, 1.0
tau_hat = (2 * torch.arange(N, dtype=torch.float32) + 1) / (2.0 * N)
print(tau_hat)

current = (torch.sin(torch.arange(B * N, dtype=torch.float32) * 0.8) * 2).view(B, N).requires_grad_()
target = (torch.cos(torch.arange(B * N, dtype=torch.float32) * 0.5) * 1.5).view(B, N)

td = target.unsqueeze(1) - current.unsqueeze(2)          # (B, N, N)
print(td.shape, td.grad_fn.name())
huber = F.huber_loss(current.unsqueeze(2).expand(B, N, N), target.unsqueeze(1).expand(B, N, N),
                     reduction="none", delta=kappa)
huber2 = torch.where(td.abs() <= kappa, 0.5 * td.pow(2), kappa * (td.abs() - 0.5 * kappa))
print(torch.allclose(huber, huber2), huber.grad_fn.name())
rho = torch.abs(tau_hat.view(1, N, 1) - (td.detach() < 0).float()) * huber / kappa
loss = rho.sum(dim=1).mean(dim=1).mean()
loss.backward()
print(f"{loss.item():.5f}", current.grad.round(decimals=4))

current.grad = None
sl1 = F.smooth_l1_loss(current[:, :, None].expand(-1, -1, N), target[:, None, :].expand(-1, N, -1),
                       reduction="none", beta=0.5)
(sl1 * (tau_hat[None, :, None] - (td.detach() < 0).float()).abs()).mean().backward()
print(sl1.shape, current.grad.abs().sum().round(decimals=4))

# IQN-style: per-sample taus, quantile loss with sum over target quantiles
taus = torch.linspace(0.1, 0.9, B * N).view(B, N, 1)
current.grad = None
qloss = (taus - (td < 0).float()).abs() * F.huber_loss(td, torch.zeros_like(td), reduction="none")
qloss.sum(-1).mean().backward()
print(f"{qloss.sum(-1).mean().item():.4f}", current.grad[0])

# C51 categorical projection
atoms, v_min, v_max = 6, -2.0, 2.0
support = torch.linspace(v_min, v_max, atoms)
delta_z = (v_max - v_min) / (atoms - 1)
next_dist = F.softmax(torch.sin(torch.arange(B * atoms, dtype=torch.float32)).view(B, atoms), dim=1)
rewards = torch.tensor([0.5, -1.0, 0.0])
dones = torch.tensor([0.0, 0.0, 1.0])
tz = (rewards.unsqueeze(1) + (1 - dones).unsqueeze(1) * 0.9 * support.unsqueeze(0)).clamp(v_min, v_max)
b = (tz - v_min) / delta_z
l, u = b.floor().long(), b.ceil().long()
l[(u > 0) * (l == u)] -= 1
u[(l < (atoms - 1)) * (l == u)] += 1
proj = torch.zeros(B * atoms)
offset = (torch.arange(B) * atoms).unsqueeze(1).expand(B, atoms)
proj.index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
proj.index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
proj = proj.view(B, atoms)
print(l, u, sep="\n")
print(proj.round(decimals=4), proj.sum(1))
logits = torch.cos(torch.arange(B * atoms, dtype=torch.float32) * 0.3).view(B, atoms).requires_grad_()
ce = -(proj * F.log_softmax(logits, dim=1)).sum(1)
ce.mean().backward()
print(ce.round(decimals=4), logits.grad.sum(1).abs().max() < 1e-6)
print(F.cross_entropy(logits, proj, reduction="none").round(decimals=4))
