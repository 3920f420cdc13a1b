# Glow building blocks (openai/glow, rosinality/glow-pytorch): ActNorm with data init, invertible
# 1x1 convolution with slogdet and its LU-decomposed version, squeeze, and bits-per-dim objective.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def squeeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4).contiguous()
    return x.view(b, c * 4, h // 2, w // 2)


def unsqueeze2d(x):
    b, c, h, w = x.shape
    x = x.view(b, c // 4, 2, 2, h, w).permute(0, 1, 4, 2, 5, 3).contiguous()
    return x.view(b, c // 4, h * 2, w * 2)


class InvConv2d(nn.Module):
    def __init__(self, c):
        super().__init__()
        q, _ = torch.linalg.qr(torch.sin(torch.arange(c * c, dtype=torch.float32).view(c, c) * 1.1) + torch.eye(c))
        self.weight = nn.Parameter(q.unsqueeze(2).unsqueeze(3))

    def forward(self, x):
        _, _, h, w = x.shape
        out = F.conv2d(x, self.weight)
        logdet = h * w * torch.slogdet(self.weight.squeeze().double())[1].float()
        return out, logdet

    def reverse(self, y):
        return F.conv2d(y, self.weight.squeeze().inverse().unsqueeze(2).unsqueeze(3))


class InvConv2dLU(nn.Module):
    def __init__(self, c):
        super().__init__()
        q, _ = torch.linalg.qr(torch.sin(torch.arange(c * c, dtype=torch.float32).view(c, c) * 1.1) + torch.eye(c))
        w_p, w_l, w_u = torch.linalg.lu(q)
        w_s = torch.diag(w_u)
        self.register_buffer("w_p", w_p)
        self.register_buffer("u_mask", torch.triu(torch.ones(c, c), 1))
        self.register_buffer("l_mask", self.u_mask.T)
        self.register_buffer("s_sign", torch.sign(w_s))
        self.register_buffer("l_eye", torch.eye(c))
        self.w_l = nn.Parameter(w_l)
        self.w_s = nn.Parameter(torch.log(torch.abs(w_s)))
        self.w_u = nn.Parameter(torch.triu(w_u, 1))

    def calc_weight(self):
        w = self.w_p @ (self.w_l * self.l_mask + self.l_eye) @ (self.w_u * self.u_mask + torch.diag(self.s_sign * torch.exp(self.w_s)))
        return w.unsqueeze(2).unsqueeze(3)

    def forward(self, x):
        _, _, h, w = x.shape
        return F.conv2d(x, self.calc_weight()), h * w * torch.sum(self.w_s)


class ActNorm(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.scale = nn.Parameter(torch.ones(1, c, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    @torch.no_grad()
    def initialize(self, x):
        flat = x.permute(1, 0, 2, 3).contiguous().view(x.shape[1], -1)
        mean = flat.mean(1).view(1, -1, 1, 1)
        std = flat.std(1).view(1, -1, 1, 1)
        self.loc.data.copy_(-mean)
        self.scale.data.copy_(1 / (std + 1e-6))

    def forward(self, x):
        _, _, h, w = x.shape
        if self.initialized.item() == 0:
            self.initialize(x)
            self.initialized.fill_(1)
        logdet = h * w * torch.sum(torch.log(torch.abs(self.scale)))
        return self.scale * (x + self.loc), logdet


x = torch.sin(torch.arange(2 * 1 * 4 * 4, dtype=torch.float32).view(2, 1, 4, 4) * 0.7) * 0.5
s = squeeze2d(x)
print(s.shape, torch.equal(unsqueeze2d(s), x))
an, ic, lu = ActNorm(4), InvConv2d(4), InvConv2dLU(4)
y, ld1 = an(s)
print(f"{y.mean().item():.4f} {y.std().item():.4f} {ld1.item():.4f}")
print(an.initialized, an.scale.flatten())
y2, ld2 = ic(y)
y3, ld3 = lu(y)
print(y2.shape, f"{ld2.item():.4f}", f"{ld3.item():.4f}")
print(torch.allclose(ic.reverse(y2), y, atol=1e-5), torch.allclose(y2, y3, atol=1e-5))
print(torch.allclose(lu.calc_weight().squeeze(), ic.weight.squeeze(), atol=1e-5))
print(lu.w_p)
print(lu.s_sign)
n_pixel = 1 * 4 * 4
log_p = -0.5 * (y3 ** 2 + math.log(2 * math.pi)).flatten(1).sum(1)
logdet = ld1 + ld2
loss = -math.log(256) * n_pixel + logdet + log_p
bpd = (-loss / (math.log(2) * n_pixel)).mean()
print(f"bpd {bpd.item():.4f}")
bpd.backward()
print(ic.weight.grad.shape, lu.w_s.grad, an.initialized.item())
print(sorted(k for k in lu.state_dict().keys()))
sign, logabs = torch.linalg.slogdet(torch.tensor([[2.0, 1.0], [1.0, -3.0]]))
print(sign, logabs, torch.det(torch.tensor([[2.0, 1.0], [1.0, -3.0]])))
print(torch.logdet(torch.tensor([[2.0, 1.0], [1.0, -3.0]])))
