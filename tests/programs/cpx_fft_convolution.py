# FFT convolution as users write it to speed up long filters: zero-pad to the full length,
# multiply spectra, transform back; compared with F.conv1d, and differentiated through.
import torch
import torch.nn.functional as F

x = torch.linspace(-1, 1, 32).sin() * 3 + torch.arange(32.) / 10
kernel = torch.tensor([0.25, 0.5, 0.25, -0.1, 0.05], requires_grad=True)

def fft_convolve(a, b):
    n = a.shape[-1] + b.shape[-1] - 1
    return torch.fft.irfft(torch.fft.rfft(a, n=n) * torch.fft.rfft(b, n=n), n=n)

full = fft_convolve(x, kernel)
direct = F.conv1d(x.view(1, 1, -1), kernel.flip(0).view(1, 1, -1), padding=kernel.numel() - 1).view(-1)
print(full.shape, direct.shape)
print("same as conv1d:", torch.allclose(full, direct, atol=1e-5))
print(full[:6].detach().round(decimals=4))

# learn a kernel that smooths: match a moving average through the FFT path
target = fft_convolve(x, torch.full((5,), 0.2)).detach()
opt = torch.optim.SGD([kernel], lr=0.002)
for step in range(30):
    opt.zero_grad()
    loss = ((fft_convolve(x, kernel) - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"{loss.item():.5f}")
print("kernel", kernel.detach().round(decimals=3))
print(kernel.grad.shape, kernel.grad.dtype)

# a 2-D blur through rfft2 / irfft2, checked against conv2d with circular padding
image = torch.arange(36.).reshape(6, 6).cos()
blur = torch.zeros(6, 6)
blur[:2, :2] = 0.25
circular = torch.fft.irfft2(torch.fft.rfft2(image) * torch.fft.rfft2(blur), s=image.shape)
padded = F.pad(image.view(1, 1, 6, 6), (1, 0, 1, 0), mode="circular")
reference = F.conv2d(padded, torch.full((1, 1, 2, 2), 0.25)).view(6, 6)
print("circular blur:", torch.allclose(circular, reference, atol=1e-5))
