# TimesNet-style period discovery and 2-D reshaping as in the Time-Series-Library code: FFT_for_
# Period with torch.fft.rfft, amplitude mean over batch and channels, topk frequencies (DC set to
# zero), pad each window to a multiple of the period, reshape to [B, C, T/p, p], an inception-ish
# pair of Conv2d kernels averaged with torch.stack(...).mean(-1), and softmax-weighted aggregation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def fft_for_period(x, k=2):
    xf = torch.fft.rfft(x, dim=1)
    frequency_list = abs(xf).mean(0).mean(-1)
    frequency_list[0] = 0
    _, top_list = torch.topk(frequency_list, k)
    top_list = top_list.detach().cpu().numpy()
    period = x.shape[1] // top_list
    return period, abs(xf).mean(-1)[:, top_list]


class Inception(nn.Module):
    def __init__(self, c_in, c_out, num_kernels=2):
        super().__init__()
        self.kernels = nn.ModuleList([nn.Conv2d(c_in, c_out, kernel_size=2 * i + 1, padding=i) for i in range(num_kernels)])

    def forward(self, x):
        return torch.stack([k(x) for k in self.kernels], dim=-1).mean(-1)


class TimesBlock(nn.Module):
    def __init__(self, seq_len, d_model, k=2):
        super().__init__()
        self.seq_len, self.k = seq_len, k
        self.conv = nn.Sequential(Inception(d_model, 8), nn.GELU(), Inception(8, d_model))

    def forward(self, x):
        B, T, N = x.size()
        period_list, period_weight = fft_for_period(x, self.k)
        res = []
        for i in range(self.k):
            period = int(period_list[i])
            if self.seq_len % period != 0:
                length = ((self.seq_len // period) + 1) * period
                padding = torch.zeros([x.shape[0], (length - self.seq_len), x.shape[2]]).to(x.device)
                out = torch.cat([x, padding], dim=1)
            else:
                length = self.seq_len
                out = x
            out = out.reshape(B, length // period, period, N).permute(0, 3, 1, 2).contiguous()
            out = self.conv(out)
            out = out.permute(0, 2, 3, 1).reshape(B, -1, N)
            res.append(out[:, :self.seq_len, :])
        res = torch.stack(res, dim=-1)
        period_weight = F.softmax(period_weight, dim=1)
        period_weight = period_weight.unsqueeze(1).unsqueeze(1).repeat(1, T, N, 1)
        res = torch.sum(res * period_weight, -1)
        return res + x, period_list


T, N, B = 24, 4, 3
t = torch.arange(T, dtype=torch.float32)
x = torch.stack([torch.sin(2 * torch.pi * t / 8 + b) + 0.5 * torch.cos(2 * torch.pi * t / 5) for b in range(B)])
x = x.unsqueeze(-1) * torch.linspace(0.5, 1.5, N)
periods, weights = fft_for_period(x, 3)
print("periods", periods, type(periods).__name__, periods.dtype)
print("weights", weights)
block = TimesBlock(T, N)
with torch.no_grad():
    for i, p in enumerate(block.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.47 + i).reshape(p.shape) * 0.2)
out, plist = block(x)
print("out", tuple(out.shape), plist)
print(out[0, :5])
head = nn.Linear(T * N, 6)
with torch.no_grad():
    head.weight.copy_(torch.cos(torch.arange(6 * T * N, dtype=torch.float32) * 0.01).view(6, -1) * 0.05)
    head.bias.zero_()
opt = torch.optim.SGD(list(block.parameters()) + list(head.parameters()), lr=0.05, momentum=0.9)
target = torch.sin(2 * torch.pi * (T + torch.arange(6.)) / 8).expand(B, 6)
for step in range(20):
    opt.zero_grad()
    y, _ = block(x)
    loss = F.mse_loss(head(y.flatten(1)), target)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} loss {loss.item():.5f}")
