# ConvTranspose2d for decoders / upsampling: output size arithmetic (stride, padding,
# output_padding, dilation, groups), output_size=, the inverse-shape trick with Conv2d,
# reprs, values on a tiny input and gradients — "how do I get back my original size?"
import torch
import torch.nn as nn
import torch.nn.functional as F


def fill(module, scale=0.1):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view(p.shape) * scale)
    return module


x = torch.linspace(-1, 1, 2 * 4 * 5 * 5).view(2, 4, 5, 5)
for kwargs in [dict(kernel_size=3), dict(kernel_size=2, stride=2), dict(kernel_size=3, stride=2, padding=1),
               dict(kernel_size=3, stride=2, padding=1, output_padding=1), dict(kernel_size=4, stride=2, padding=1),
               dict(kernel_size=3, dilation=2), dict(kernel_size=(3, 1), stride=(2, 1), groups=2),
               dict(kernel_size=3, stride=3, padding=1, output_padding=2, bias=False)]:
    deconv = fill(nn.ConvTranspose2d(4, 6, **kwargs))
    out = deconv(x)
    out.sum().backward()
    print(deconv, tuple(out.shape), tuple(deconv.weight.shape), f"{deconv.weight.grad.abs().sum().item():.1f}")

# tiny exact values: a 2x2 input with an all-ones 2x2 kernel, stride 2 "stamps" each pixel
img = torch.tensor([[[[1., 2.], [3., 4.]]]])
up = nn.ConvTranspose2d(1, 1, 2, stride=2, bias=False)
with torch.no_grad():
    up.weight.fill_(1.0)
print(up(img))
up3 = nn.ConvTranspose2d(1, 1, 3, stride=1, bias=False)
nn.init.ones_(up3.weight)
print(up3(img))
print(F.conv_transpose2d(img, torch.tensor([[[[1., 0.], [0., -1.]]]]), stride=1))

# the encoder/decoder shape round trip, with output_size= to disambiguate
enc = fill(nn.Conv2d(1, 3, 3, stride=2, padding=1))
dec = fill(nn.ConvTranspose2d(3, 1, 3, stride=2, padding=1))
for hw in [(7, 7), (8, 8), (8, 7)]:
    z = enc(torch.ones(1, 1, *hw))
    y = dec(z, output_size=[1, 1, *hw])
    print(hw, tuple(z.shape), tuple(dec(z).shape), tuple(y.shape))
try:
    dec(enc(torch.ones(1, 1, 8, 8)), output_size=[10, 10])
except Exception as e:
    print(type(e).__name__, e)

# a tiny autoencoder trained a few steps
model = nn.Sequential(fill(nn.Conv2d(1, 2, 3, stride=2, padding=1)), nn.ReLU(),
                      fill(nn.ConvTranspose2d(2, 1, 4, stride=2, padding=1)), nn.Sigmoid())
print(model)
target = (torch.arange(36.).view(1, 1, 6, 6) % 5 == 0).float()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(4):
    opt.zero_grad()
    recon = model(target)
    loss = F.binary_cross_entropy(recon, target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", recon.grad_fn.name())
print(model[2].weight.grad[0, 0], model[2].bias.grad)
print(F.conv_transpose2d(torch.ones(1, 2, 3, 3), torch.ones(2, 1, 2, 2), groups=2, stride=2).shape)
