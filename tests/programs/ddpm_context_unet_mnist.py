# TeaPearce's "Conditional_Diffusion_MNIST" ContextUnet, scaled down: ResidualConvBlock with
# BatchNorm2d + GELU and /1.414 residual, UnetDown with MaxPool2d, to_vec AvgPool2d, up0 via
# ConvTranspose2d(k=stride=2), EmbedFC for time and one-hot context with context_mask, the
# ddpm_schedules() dict of buffers, and guided sampling with the batch doubled (w mixing).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, is_res=False):
        super().__init__()
        self.same_channels = in_channels == out_channels
        self.is_res = is_res
        self.conv1 = nn.Sequential(nn.Conv2d(in_channels, out_channels, 3, 1, 1), nn.BatchNorm2d(out_channels), nn.GELU())
        self.conv2 = nn.Sequential(nn.Conv2d(out_channels, out_channels, 3, 1, 1), nn.BatchNorm2d(out_channels), nn.GELU())

    def forward(self, x):
        x1 = self.conv1(x)
        x2 = self.conv2(x1)
        if self.is_res:
            out = x + x2 if self.same_channels else x1 + x2
            return out / 1.414
        return x2


class UnetDown(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.model = nn.Sequential(ResidualConvBlock(in_channels, out_channels), nn.MaxPool2d(2))

    def forward(self, x):
        return self.model(x)


class UnetUp(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.model = nn.Sequential(nn.ConvTranspose2d(in_channels, out_channels, 2, 2),
                                   ResidualConvBlock(out_channels, out_channels), ResidualConvBlock(out_channels, out_channels))

    def forward(self, x, skip):
        return self.model(torch.cat((x, skip), 1))


class EmbedFC(nn.Module):
    def __init__(self, input_dim, emb_dim):
        super().__init__()
        self.input_dim = input_dim
        self.model = nn.Sequential(nn.Linear(input_dim, emb_dim), nn.GELU(), nn.Linear(emb_dim, emb_dim))

    def forward(self, x):
        return self.model(x.view(-1, self.input_dim))


class ContextUnet(nn.Module):
    def __init__(self, in_channels=1, n_feat=4, n_classes=3):
        super().__init__()
        self.n_classes = n_classes
        self.init_conv = ResidualConvBlock(in_channels, n_feat, is_res=True)
        self.down1 = UnetDown(n_feat, n_feat)
        self.down2 = UnetDown(n_feat, 2 * n_feat)
        self.to_vec = nn.Sequential(nn.AvgPool2d(2), nn.GELU())
        self.timeembed1 = EmbedFC(1, 2 * n_feat)
        self.timeembed2 = EmbedFC(1, n_feat)
        self.contextembed1 = EmbedFC(n_classes, 2 * n_feat)
        self.contextembed2 = EmbedFC(n_classes, n_feat)
        self.up0 = nn.Sequential(nn.ConvTranspose2d(2 * n_feat, 2 * n_feat, 2, 2), nn.GroupNorm(4, 2 * n_feat), nn.ReLU())
        self.up1 = UnetUp(4 * n_feat, n_feat)
        self.up2 = UnetUp(2 * n_feat, n_feat)
        self.out = nn.Sequential(nn.Conv2d(2 * n_feat, n_feat, 3, 1, 1), nn.GroupNorm(4, n_feat), nn.ReLU(), nn.Conv2d(n_feat, in_channels, 3, 1, 1))
        self.n_feat = n_feat

    def forward(self, x, c, t, context_mask):
        x = self.init_conv(x)
        down1 = self.down1(x)
        down2 = self.down2(down1)
        hiddenvec = self.to_vec(down2)
        c = F.one_hot(c, num_classes=self.n_classes).type(torch.float)
        context_mask = context_mask[:, None].repeat(1, self.n_classes)
        context_mask = -1 * (1 - context_mask)
        c = c * context_mask
        cemb1 = self.contextembed1(c).view(-1, self.n_feat * 2, 1, 1)
        temb1 = self.timeembed1(t).view(-1, self.n_feat * 2, 1, 1)
        cemb2 = self.contextembed2(c).view(-1, self.n_feat, 1, 1)
        temb2 = self.timeembed2(t).view(-1, self.n_feat, 1, 1)
        up1 = self.up0(hiddenvec)
        up2 = self.up1(cemb1 * up1 + temb1, down2)
        up3 = self.up2(cemb2 * up2 + temb2, down1)
        return self.out(torch.cat((up3, x), 1))


def ddpm_schedules(beta1, beta2, T):
    beta_t = (beta2 - beta1) * torch.arange(0, T + 1, dtype=torch.float32) / T + beta1
    sqrt_beta_t = torch.sqrt(beta_t)
    alpha_t = 1 - beta_t
    log_alpha_t = torch.log(alpha_t)
    alphabar_t = torch.cumsum(log_alpha_t, dim=0).exp()
    return {"alpha_t": alpha_t, "oneover_sqrta": 1 / torch.sqrt(alpha_t), "sqrt_beta_t": sqrt_beta_t,
            "alphabar_t": alphabar_t, "sqrtab": torch.sqrt(alphabar_t), "sqrtmab": torch.sqrt(1 - alphabar_t),
            "mab_over_sqrtmab": (1 - alpha_t) / torch.sqrt(1 - alphabar_t)}


n_T = 40
sched = ddpm_schedules(1e-4, 0.02, n_T)
print({k: round(v[n_T // 2].item(), 5) for k, v in sched.items()})
net = ContextUnet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x = torch.cos(torch.arange(4 * 64, dtype=torch.float32) * 0.23).reshape(4, 1, 8, 8)
c = torch.tensor([0, 1, 2, 1])
for step in range(5):
    _ts = torch.tensor([1, 10, 25, 40]) - step
    noise = torch.sin(torch.arange(x.numel(), dtype=torch.float32) * 1.9 + step).reshape(x.shape)
    x_t = sched["sqrtab"][_ts, None, None, None] * x + sched["sqrtmab"][_ts, None, None, None] * noise
    context_mask = torch.tensor([0.0, 0.0, 1.0, float(step % 2)])
    loss = nn.MSELoss()(noise, net(x_t, c, _ts / n_T, context_mask))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} bn_mean {net.init_conv.conv1[1].running_mean.abs().sum().item():.3f}")

net.eval()
with torch.no_grad():
    n_sample, guide_w = 3, 2.0
    x_i = torch.sin(torch.arange(n_sample * 64, dtype=torch.float32) * 0.77).reshape(n_sample, 1, 8, 8)
    c_i = torch.arange(0, 3) % 3
    context_mask = torch.zeros_like(c_i).float()
    c_i = c_i.repeat(2)
    context_mask = context_mask.repeat(2)
    context_mask[n_sample:] = 1.0
    for i in range(n_T, 0, -8):
        t_is = torch.tensor([i / n_T]).repeat(n_sample, 1, 1, 1)
        x_in = x_i.repeat(2, 1, 1, 1)
        t_is = t_is.repeat(2, 1, 1, 1)
        z = torch.cos(x_i * 2.0 + i) if i > 1 else 0
        eps = net(x_in, c_i, t_is, context_mask)
        eps1, eps2 = eps[:n_sample], eps[n_sample:]
        eps = (1 + guide_w) * eps1 - guide_w * eps2
        x_i = sched["oneover_sqrta"][i] * (x_i - eps * sched["mab_over_sqrtmab"][i]) + sched["sqrt_beta_t"][i] * z
        print(i, x_i.shape, f"{x_i.mean().item():.4f}")
torch.set_printoptions(precision=3)
print(x_i[:, 0, 0])
