# The DCGAN-tutorial training loop on toy 1-D data with both networks compiled
# (`netG = torch.compile(netG)`, `netD = torch.compile(netD)`), two Adam optimizers,
# fake.detach() for the discriminator step, BCEWithLogits losses.
import torch
import torch.nn as nn


def init_(model, phase):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + phase + i).view_as(p) * 0.5)


G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 3))
D = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
init_(G, 0.0)
init_(D, 1.0)
netG, netD = torch.compile(G), torch.compile(D)

optG = torch.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
criterion = nn.BCEWithLogitsLoss()

real = torch.stack([torch.linspace(0.5, 1.5, 3) + 0.1 * torch.sin(torch.tensor(float(k))) for k in range(8)])
noise = torch.stack([torch.tensor([torch.cos(torch.tensor(k * 0.7)).item(), k / 8.0]) for k in range(8)])
ones, zeros = torch.ones(8, 1), torch.zeros(8, 1)

for step in range(10):
    # discriminator: real vs detached fake
    optD.zero_grad()
    fake = netG(noise)
    lossD = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
    lossD.backward()
    optD.step()
    # generator: fool the discriminator
    optG.zero_grad()
    lossG = criterion(netD(fake), ones)
    lossG.backward()
    optG.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} lossD {lossD.item():.4f} lossG {lossG.item():.4f}")

print("G grads after D step are None?", [p.grad is None for p in G.parameters()][:2])
with torch.no_grad():
    sample = netG(noise[:3])
print(torch.round(sample, decimals=3))
print(fake.requires_grad, fake.detach().requires_grad, fake.grad_fn is not None)
print(sorted(k for k in netD.state_dict()))
