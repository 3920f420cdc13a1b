# ConvNeXt-V2 pieces as written in the official repo: GRN (global response normalisation with
# torch.norm over spatial dims), LayerNorm2d as nn.LayerNorm subclass with permute, channels_last
# memory format, and a stem with padding='same' convs; gradients and a few SGD steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gamma = nn.Parameter(torch.zeros(1, 1, 1, dim))
        self.beta = nn.Parameter(torch.zeros(1, 1, 1, dim))

    def forward(self, x):
        Gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
        Nx = Gx / (Gx.mean(dim=-1, keepdim=True) + 1e-6)
        return self.gamma * (x * Nx) + self.beta + x


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class BlockV2(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=3, padding="same", groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.grn = GRN(4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        inp = x
        x = self.dwconv(x).permute(0, 2, 3, 1)
        x = self.pwconv2(self.grn(self.act(self.pwconv1(self.norm(x)))))
        return inp + x.permute(0, 3, 1, 2)


model = nn.Sequential(nn.Conv2d(3, 4, 2, stride=2), LayerNorm2d(4, eps=1e-6), BlockV2(4), BlockV2(4),
                      LayerNorm2d(4), nn.AdaptiveAvgPool2d(1), nn.Flatten(1), nn.Linear(4, 2))
print(model[1], model[2].grn.gamma.shape)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 0.5 * i).view_as(p) * 0.4)
print(sum(p.numel() for p in model.parameters()))

x = torch.cos(torch.arange(3 * 3 * 6 * 6, dtype=torch.float32) * 0.2).view(3, 3, 6, 6)
xc = x.to(memory_format=torch.channels_last)
print(xc.is_contiguous(), xc.is_contiguous(memory_format=torch.channels_last), xc.stride())
print(torch.allclose(model(x), model(xc), atol=1e-6))

g = GRN(4)
t = torch.arange(2 * 2 * 3 * 4, dtype=torch.float32).view(2, 2, 3, 4) / 10
print(torch.norm(t, p=2, dim=(1, 2), keepdim=True).view(2, 4))
print(torch.linalg.vector_norm(t, ord=2, dim=(1, 2)).shape)

y = torch.tensor([0, 1, 1])
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for step in range(10):
    out = model(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}")
print(out.grad_fn.name(), model[2].grn.gamma.grad.view(-1)[:4])
print(model[2].dwconv)
try:
    nn.Conv2d(4, 4, 3, stride=2, padding="same")
except Exception as e:
    print(type(e).__name__, e)
