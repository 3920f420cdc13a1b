# GAIL / AIRL discriminator update: BCE-with-logits on expert vs policy (s, a) pairs built with
# torch.ones/zeros_like targets, a gradient penalty on interpolates via autograd.grad(create_graph=True),
# and the learned reward -log(1 - D) = softplus(logit) (also the -logsigmoid(-logit) form).
import torch
import torch.nn as nn
import torch.nn.functional as F

disc = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(disc.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.73 + i).view_as(p) * 0.5)
opt = torch.optim.Adam(disc.parameters(), lr=1e-2, betas=(0.5, 0.999))

expert = torch.stack([torch.sin(torch.arange(4) * 0.5 + 0.2 * i) for i in range(6)])
policy = torch.stack([torch.cos(torch.arange(4) * 0.9 + 0.3 * i) for i in range(6)])
alphas = torch.linspace(0.1, 0.9, 6).unsqueeze(1)

for step in range(6):
    expert_logits = disc(expert)
    policy_logits = disc(policy)
    bce = F.binary_cross_entropy_with_logits(expert_logits, torch.ones_like(expert_logits)) + \
        F.binary_cross_entropy_with_logits(policy_logits, torch.zeros_like(policy_logits))
    mix = (alphas * expert + (1 - alphas) * policy).requires_grad_(True)
    out = disc(mix)
    grads = torch.autograd.grad(out, mix, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss = bce + 10.0 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        acc_e = (torch.sigmoid(expert_logits) > 0.5).float().mean().item()
        acc_p = (torch.sigmoid(policy_logits) < 0.5).float().mean().item()
    print(step, f"bce={bce.item():.4f} gp={gp.item():.4f}", acc_e, acc_p, grads.grad_fn.name(), gp.requires_grad)

with torch.no_grad():
    logits = disc(policy).squeeze(-1)
    r1 = -torch.log(1 - torch.sigmoid(logits) + 1e-8)
    r2 = F.softplus(logits)
    r3 = -F.logsigmoid(-logits)
    airl = logits
print(r1.round(decimals=4), torch.allclose(r1, r2, atol=1e-4), torch.allclose(r2, r3, atol=1e-6))
print(airl.round(decimals=4), F.softplus(logits, beta=2, threshold=1).round(decimals=4))
bce_none = F.binary_cross_entropy_with_logits(logits, torch.ones(6), reduction="none", pos_weight=torch.tensor(2.0))
print(bce_none.round(decimals=4), F.binary_cross_entropy(torch.sigmoid(logits), torch.zeros(6)).round(decimals=4))
