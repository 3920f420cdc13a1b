# GAN training steps with BCEWithLogitsLoss (no Sigmoid in D): ones_like / zeros_like targets,
# one-sided label smoothing, fake.detach() for D, separate Adam optimizers, toggling
# requires_grad on D while updating G, the non-saturating vs. saturating G loss, hinge loss,
# and the errors users get when the targets are wrong.
import torch
import torch.nn as nn
import torch.nn.functional as F

G = nn.Sequential(nn.Linear(3, 16), nn.BatchNorm1d(16), nn.ReLU(True), nn.Linear(16, 4), nn.Tanh())
D = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2, inplace=True), nn.Dropout(0.0), nn.Linear(16, 1))
for k, net in enumerate((G, D)):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + 3 * i + k).view_as(p) * 0.5)
criterion = nn.BCEWithLogitsLoss()
print(criterion, nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0])))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = torch.sin(torch.arange(24, dtype=torch.float32) * 0.8).view(6, 4)
z = torch.cos(torch.arange(18, dtype=torch.float32) * 1.9).view(6, 3)


def set_requires_grad(nets, requires_grad=False):
    if not isinstance(nets, list):
        nets = [nets]
    for net in nets:
        if net is not None:
            for param in net.parameters():
                param.requires_grad = requires_grad


for epoch in range(3):
    fake = G(z)
    set_requires_grad(D, True)
    opt_d.zero_grad()
    pred_real = D(real)
    pred_fake = D(fake.detach())
    loss_d_real = criterion(pred_real, torch.ones_like(pred_real) * 0.9)
    loss_d_fake = criterion(pred_fake, torch.zeros_like(pred_fake))
    loss_d = (loss_d_real + loss_d_fake) * 0.5
    loss_d.backward()
    opt_d.step()
    set_requires_grad(D, False)
    opt_g.zero_grad()
    pred = D(fake)
    loss_g = criterion(pred, torch.ones_like(pred))
    loss_g.backward()
    opt_g.step()
    d_acc = ((pred_real > 0).float().mean() + (pred_fake < 0).float().mean()) / 2
    print(f"epoch {epoch}: D {loss_d.item():.5f} (real {loss_d_real.item():.5f}, fake {loss_d_fake.item():.5f}) "
          f"G {loss_g.item():.5f} D acc {d_acc.item():.3f} D(G(z)) {torch.sigmoid(pred).mean().item():.5f}")
print(D[0].weight.grad is None or D[0].weight.grad.abs().sum().item() >= 0, D[0].weight.requires_grad)
print(G[1].running_mean[:4], G[1].num_batches_tracked)
print(pred.grad_fn.name(), loss_g.grad_fn.name(), fake.detach().grad_fn, fake.detach().requires_grad)

set_requires_grad(D, True)
logits = D(real).squeeze(1)
sat = -F.logsigmoid(logits).mean()
nonsat = torch.log1p(-torch.sigmoid(logits)).mean()
print(f"{sat.item():.6f} {nonsat.item():.6f} {F.softplus(-logits).mean().item():.6f}")
print(torch.allclose(sat, F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))))
d_hinge = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(G(z).detach())).mean()
g_hinge = -D(G(z)).mean()
print(f"hinge D {d_hinge.item():.6f} G {g_hinge.item():.6f}", d_hinge.grad_fn.name())
print(F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits), reduction='none'))
print(F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits), pos_weight=torch.tensor(3.0)))
print(F.binary_cross_entropy_with_logits(torch.tensor([100., -100.]), torch.tensor([0., 1.])))

# mistakes people make
for target in (torch.ones(6), torch.ones(6, 1, dtype=torch.long)):
    try:
        print(criterion(D(real), target))
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
G.eval()
with torch.no_grad():
    samples = G(z)
print(samples.requires_grad, samples.shape, samples[0])
try:
    G.train()(z[:1])
except ValueError as e:
    print(type(e).__name__, e)
