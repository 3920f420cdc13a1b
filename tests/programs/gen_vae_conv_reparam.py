# A convolutional VAE as the tutorials write it: encoder -> (mu, logvar), reparameterization
# z = mu + eps * exp(0.5 * logvar) with eps built deterministically, BCE(sum) + KL, clamping,
# sampling from the prior, and the errors people hit with binary_cross_entropy.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvVAE(nn.Module):
    def __init__(self, latent_dim=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(4, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten())
        self.fc_mu = nn.Linear(8 * 2 * 2, latent_dim)
        self.fc_logvar = nn.Linear(8 * 2 * 2, latent_dim)
        self.fc_dec = nn.Linear(latent_dim, 8 * 2 * 2)
        self.dec = nn.Sequential(nn.Unflatten(1, (8, 2, 2)),
                                 nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1), nn.ReLU(),
                                 nn.ConvTranspose2d(4, 1, 4, stride=2, padding=1), nn.Sigmoid())

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return eps.mul(std).add_(mu)

    def forward(self, x, eps):
        h = self.enc(x)
        mu, logvar = self.fc_mu(h), self.fc_logvar(h)
        logvar = torch.clamp(logvar, -10.0, 10.0)
        z = self.reparameterize(mu, logvar, eps)
        return self.dec(self.fc_dec(z)), mu, logvar, z


model = ConvVAE()
print(model)
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).reshape(p.shape) * 0.3)
x = (torch.cos(torch.arange(2 * 64, dtype=torch.float32) * 0.3).view(2, 1, 8, 8) + 1) / 2
eps = torch.sin(torch.arange(6, dtype=torch.float32) * 1.7).view(2, 3)
recon, mu, logvar, z = model(x, eps)
print(recon.shape, mu.shape, z.grad_fn.name(), logvar.grad_fn.name(), recon.grad_fn.name())
print(mu, logvar, z, sep="\n")

bce = F.binary_cross_entropy(recon, x, reduction='sum')
kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
kld_per_sample = (-0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(dim=1)).mean()
print(f"BCE {bce.item():.4f} KLD {kld.item():.5f} KLD/sample {kld_per_sample.item():.5f}")
mse = F.mse_loss(recon, x, reduction='sum')
print(f"MSE(sum) {mse.item():.5f}", F.binary_cross_entropy(recon, x).grad_fn.name())
loss = (bce + kld) / x.size(0)
loss.backward()
print(model.fc_mu.bias.grad, model.fc_logvar.bias.grad, sep="\n")
print(model.enc[0].weight.grad.shape, model.dec[3].bias.grad)

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 4):
    opt.zero_grad()
    recon, mu, logvar, z = model(x, eps)
    rec = F.binary_cross_entropy(recon, x, reduction='sum')
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    beta = min(1.0, epoch / 2)
    total = rec + beta * kl
    total.backward()
    opt.step()
    print('====> Epoch: {} loss: {:.4f} (rec {:.4f}, kl {:.4f}, beta {})'.format(epoch, total.item(), rec.item(), kl.item(), beta))

model.eval()
with torch.no_grad():
    sample = torch.linspace(-2, 2, 9).view(3, 3)
    out = model.dec(model.fc_dec(sample))
    print(out.shape, out.requires_grad, out[0, 0, 0])
    print(out.view(3, -1).sum(1))

# Errors and warnings users post about
for bad in (recon.detach() * 2, torch.full((2, 1, 8, 8), -0.5)):
    try:
        F.binary_cross_entropy(bad, x)
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    F.binary_cross_entropy(recon, x.view(2, 64))
except ValueError as e:
    print(type(e).__name__, e)
p = torch.tensor([0.0, 1.0, 0.5])
t = torch.tensor([1.0, 0.0, 0.5])
print(F.binary_cross_entropy(p, t, reduction='none'))
print(F.binary_cross_entropy(p.clamp(1e-6, 1 - 1e-6), t, reduction='none'))
