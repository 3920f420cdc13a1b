# pix2pix / CycleGAN building blocks as in the reference implementation: ResnetBlock with
# ReflectionPad2d + InstanceNorm2d, ConvTranspose2d(output_padding=1) upsampling, a PatchGAN
# discriminator, GANLoss with registered label buffers (MSE for LSGAN, BCEWithLogits for vanilla),
# cycle-consistency / identity L1 losses, and the linear-decay LambdaLR rule.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import init


class ResnetBlock(nn.Module):
    def __init__(self, dim, norm_layer=nn.InstanceNorm2d, use_dropout=False):
        super().__init__()
        self.conv_block = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), norm_layer(dim), nn.ReLU(True),
                                        nn.ReflectionPad2d(1), nn.Conv2d(dim, dim, 3), norm_layer(dim))

    def forward(self, x):
        return x + self.conv_block(x)


def make_G(ngf=4):
    return nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(3, ngf, 7), nn.InstanceNorm2d(ngf), nn.ReLU(True),
                         nn.Conv2d(ngf, ngf * 2, 3, stride=2, padding=1), nn.InstanceNorm2d(ngf * 2), nn.ReLU(True),
                         ResnetBlock(ngf * 2),
                         nn.ConvTranspose2d(ngf * 2, ngf, 3, stride=2, padding=1, output_padding=1),
                         nn.InstanceNorm2d(ngf), nn.ReLU(True),
                         nn.ReflectionPad2d(3), nn.Conv2d(ngf, 3, 7), nn.Tanh())


def make_D(ndf=4):
    return nn.Sequential(nn.Conv2d(3, ndf, 4, 2, 1), nn.LeakyReLU(0.2, True),
                         nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.InstanceNorm2d(ndf * 2), nn.LeakyReLU(0.2, True),
                         nn.Conv2d(ndf * 2, 1, 4, 1, 1))


def init_func(m, gain=0.02):
    classname = m.__class__.__name__
    if hasattr(m, 'weight') and (classname.find('Conv') != -1 or classname.find('Linear') != -1):
        with torch.no_grad():
            m.weight.copy_(torch.sin(torch.arange(m.weight.numel(), dtype=torch.float32) * 0.29).view_as(m.weight) * 0.15)
        if hasattr(m, 'bias') and m.bias is not None:
            init.constant_(m.bias.data, 0.0)
    elif classname.find('BatchNorm2d') != -1:
        init.constant_(m.weight.data, 1.0)


class GANLoss(nn.Module):
    def __init__(self, gan_mode, target_real_label=1.0, target_fake_label=0.0):
        super().__init__()
        self.register_buffer('real_label', torch.tensor(target_real_label))
        self.register_buffer('fake_label', torch.tensor(target_fake_label))
        self.loss = nn.MSELoss() if gan_mode == 'lsgan' else nn.BCEWithLogitsLoss()

    def __call__(self, prediction, target_is_real):
        target_tensor = (self.real_label if target_is_real else self.fake_label).expand_as(prediction)
        return self.loss(prediction, target_tensor)


G_AB, G_BA, D_B = make_G(), make_G(), make_D()
for net in (G_AB, G_BA, D_B):
    net.apply(init_func)
print(G_AB[7], D_B)
print(sum(p.numel() for p in G_AB.parameters()), [k for k in G_AB.state_dict() if 'running' in k])
real_A = torch.cos(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.05).view(2, 3, 8, 8)
real_B = torch.sin(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.07).view(2, 3, 8, 8)
fake_B = G_AB(real_A)
print(fake_B.shape, fake_B.grad_fn.name(), fake_B[0, 0, 0, :4])
pred = D_B(fake_B)
print(pred.shape, pred[0, 0])
crit = GANLoss('lsgan')
print(crit, dict(crit.named_buffers()))
print(GANLoss('vanilla')(pred, True), crit(pred, False))

opt_G = torch.optim.Adam(list(G_AB.parameters()) + list(G_BA.parameters()), lr=2e-3, betas=(0.5, 0.999))
opt_D = torch.optim.Adam(D_B.parameters(), lr=2e-3, betas=(0.5, 0.999))
n_epochs, n_epochs_decay, epoch_count = 2, 3, 1


def lambda_rule(epoch):
    return 1.0 - max(0, epoch + epoch_count - n_epochs) / float(n_epochs_decay + 1)


sched = torch.optim.lr_scheduler.LambdaLR(opt_G, lr_lambda=lambda_rule)
criterionCycle, criterionIdt = nn.L1Loss(), nn.L1Loss()
for epoch in range(4):
    for p in D_B.parameters():
        p.requires_grad = False
    opt_G.zero_grad()
    fake_B = G_AB(real_A)
    rec_A = G_BA(fake_B)
    idt = G_AB(real_B)
    loss_G = crit(D_B(fake_B), True) + criterionCycle(rec_A, real_A) * 10.0 + criterionIdt(idt, real_B) * 5.0
    loss_G.backward()
    opt_G.step()
    for p in D_B.parameters():
        p.requires_grad = True
    opt_D.zero_grad()
    loss_D = (crit(D_B(real_B), True) + crit(D_B(fake_B.detach()), False)) * 0.5
    loss_D.backward()
    opt_D.step()
    sched.step()
    print(f"epoch {epoch} G {loss_G.item():.3f} D {loss_D.item():.4f} lr {opt_G.param_groups[0]['lr']:.7f}", sched.get_last_lr())
print(G_AB[1].weight.grad.shape, D_B[0].bias.grad)
print(nn.InstanceNorm2d(4), nn.InstanceNorm2d(4, affine=True, track_running_stats=True))
x = torch.arange(16.).view(1, 1, 4, 4)
print(nn.ReflectionPad2d(2)(x)[0, 0, :3], nn.ReflectionPad2d((1, 0, 2, 0))(x).shape)
try:
    nn.ReflectionPad2d(4)(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    nn.InstanceNorm2d(3)(torch.ones(2, 3, 1, 1))
except ValueError as e:
    print(type(e).__name__, e)
print(nn.InstanceNorm2d(3)(torch.arange(6.).view(1, 3, 2)))
