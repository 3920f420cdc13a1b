# The DCGAN tutorial, scaled down: weights_init with a deterministic filler, a strided-conv
# discriminator (Conv2d, BatchNorm2d, LeakyReLU, Sigmoid), a ConvTranspose2d generator
# (BatchNorm2d, ReLU, Tanh), BCELoss with real/fake labels and two Adam optimizers.
import torch
import torch.nn as nn
import torch.optim as optim

nz, ngf, ndf, nc = 4, 4, 4, 1


def weights_init(m):
    classname = m.__class__.__name__
    with torch.no_grad():
        if classname.find('Conv') != -1:
            m.weight.copy_(torch.sin(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.37).reshape(m.weight.shape) * 0.2)
        elif classname.find('BatchNorm') != -1:
            m.weight.copy_(1.0 + torch.linspace(-0.02, 0.02, m.weight.numel()))
            m.bias.fill_(0)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),                 # 16 -> 8
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),            # 8 -> 4
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),              # 4 -> 1
            nn.Sigmoid())

    def forward(self, input):
        return self.main(input)


netD = Discriminator()
netD.apply(weights_init)
print(netD)
real = torch.sin(torch.arange(3 * nc * 16 * 16, dtype=torch.float32) * 0.1).view(3, nc, 16, 16)
out = netD(real)
print(out.shape, out.view(-1), out.grad_fn.name())
print(netD.main[3].running_mean, netD.main[3].num_batches_tracked)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),    # 1 -> 4
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),   # 4 -> 8
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),        # 8 -> 16
            nn.Tanh())

    def forward(self, input):
        return self.main(input)


netG = Generator()
netG.apply(weights_init)
print(netG)
print(sum(p.numel() for p in netG.parameters()), sum(p.numel() for p in netD.parameters()))
fixed_noise = torch.linspace(-1, 1, 3 * nz).view(3, nz, 1, 1)
fake = netG(fixed_noise)
print(fake.shape, fake.grad_fn.name(), fake[0, 0, :2, :4])

criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=0.0002 * 10, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002 * 10, betas=(0.5, 0.999))
real_label, fake_label = 1., 0.
for i in range(3):
    netD.zero_grad()
    label = torch.full((3,), real_label, dtype=torch.float)
    output = netD(real).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    fake = netG(fixed_noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    print('[%d/3]\tLoss_D: %.4f\tLoss_G: %.4f\tD(x): %.4f\tD(G(z)): %.4f / %.4f'
          % (i, errD.item(), errG.item(), D_x, D_G_z1, D_G_z2))
print(netG.main[0].weight[0, 0, 0], netG.main[1].running_var)
netG.eval()
with torch.no_grad():
    img = netG(fixed_noise)
print(img.min().item() >= -1, img.max().item() <= 1, img.requires_grad, img[1, 0, 7, 5:9])
