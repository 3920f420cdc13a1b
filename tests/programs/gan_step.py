# A GAN training step: generator output detached for the discriminator, two optimizers, BCE labels.
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
D = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1), nn.Sigmoid())
for net, shift in ((G, 0.0), (D, 1.0)):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i + shift).view(p.shape) * 0.5)
criterion = nn.BCELoss()
optD = torch.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
real = torch.cos(torch.arange(12, dtype=torch.float32)).view(4, 3)
noise = torch.linspace(-1, 1, 8).view(4, 2)
real_label, fake_label = 1., 0.
for it in range(3):
    D.zero_grad()
    label = torch.full((4,), real_label, dtype=torch.float)
    errD_real = criterion(D(real).view(-1), label)
    errD_real.backward()
    fake = G(noise)
    label.fill_(fake_label)
    output = D(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    optD.step()
    G.zero_grad()
    label.fill_(real_label)
    errG = criterion(D(fake).view(-1), label)
    errG.backward()
    optG.step()
    print(f"[{it}] Loss_D: {(errD_real + errD_fake).item():.4f} Loss_G: {errG.item():.4f} D(x): {D(real).mean().item():.4f}")
print(fake.requires_grad, fake.detach().requires_grad, G[0].weight.grad is not None)
