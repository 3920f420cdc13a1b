# Overlap-add resynthesis as iSTFT implementations do it without torch.istft: frames from F.unfold
# (or Tensor.unfold), windowing, then F.fold to sum overlapping frames and divide by the window envelope.
import torch
import torch.nn.functional as F

n_fft, hop, L = 8, 2, 40
t = torch.arange(L, dtype=torch.float32)
x = torch.sin(0.3 * t) + 0.5 * torch.sin(0.05 * t * t / 4)
batch = torch.stack([x, -x, x * 0.25])  # (B, L)
win = torch.hann_window(n_fft)

frames = F.unfold(batch.view(3, 1, 1, L), kernel_size=(1, n_fft), stride=(1, hop))
print(frames.shape)
frames2 = batch.unfold(-1, n_fft, hop).transpose(1, 2)
print(torch.equal(frames, frames2))

windowed = frames * win.view(1, -1, 1)
n_frames = windowed.shape[-1]
out_len = n_fft + hop * (n_frames - 1)
y = F.fold(windowed * win.view(1, -1, 1), output_size=(1, out_len), kernel_size=(1, n_fft), stride=(1, hop))
print(y.shape)
env = F.fold(win.pow(2).view(1, -1, 1).expand(1, -1, n_frames), output_size=(1, out_len),
             kernel_size=(1, n_fft), stride=(1, hop))
print(env.flatten()[:10])
recon = (y / env.clamp_min(1e-8)).view(3, out_len)
inner = slice(n_fft, out_len - n_fft)
print("max err", f"{(recon[:, inner] - batch[:, inner]).abs().max().item():.2e}" if (recon[:, inner] - batch[:, inner]).abs().max().item() > 1e-6 else "< 1e-6")
print(recon[0, 10:16].round(decimals=4))

# conv_transpose1d with an identity kernel is also overlap-add
eye = torch.eye(n_fft).unsqueeze(1)  # (n_fft, 1, n_fft)
ola = F.conv_transpose1d(windowed * win.view(1, -1, 1), eye, stride=hop)
print(ola.shape, torch.allclose(ola.view(3, -1), y.view(3, -1), atol=1e-6))

# gradient through analysis + synthesis
xs = batch.clone().requires_grad_(True)
fr = F.unfold(xs.view(3, 1, 1, L), (1, n_fft), stride=(1, hop)) * win.view(1, -1, 1)
syn = F.fold(fr, (1, out_len), (1, n_fft), stride=(1, hop))
syn.pow(2).sum().backward()
print(syn.grad_fn.name(), xs.grad[0, :10].round(decimals=4))

try:
    F.fold(windowed, output_size=(1, out_len - 3), kernel_size=(1, n_fft), stride=(1, hop))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.unfold(batch, kernel_size=(1, n_fft))
except (RuntimeError, NotImplementedError, IndexError) as e:
    print(type(e).__name__, e)
