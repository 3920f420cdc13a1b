# ViT patch-embedding tutorial: cutting an image into patches with Tensor.unfold twice (views,
# no copy) vs reshape+permute, checking strides/sharing, then folding back.
import torch
import torch.nn.functional as F

img = torch.arange(1 * 2 * 6 * 6, dtype=torch.float32).reshape(1, 2, 6, 6)
p = 3
patches = img.unfold(2, p, p).unfold(3, p, p)
print(patches.shape, patches.stride(), patches._base is img, patches.is_contiguous())
print(patches[0, 0, 1, 0])
seq = patches.permute(0, 2, 3, 1, 4, 5)
print(seq.shape, seq.stride(), seq.is_contiguous())
try:
    seq.view(1, 4, -1)
except RuntimeError as e:
    print(type(e).__name__, e)
tokens = seq.reshape(1, 4, -1)
print(tokens.shape, tokens._base is None, tokens[0, 1, :5])
alt = img.reshape(1, 2, 2, p, 2, p).permute(0, 2, 4, 1, 3, 5).reshape(1, 4, -1)
print(torch.equal(alt, tokens))
cols = F.unfold(img, kernel_size=p, stride=p)
print(cols.shape, torch.equal(cols.transpose(1, 2), tokens))
back = F.fold(cols, output_size=(6, 6), kernel_size=p, stride=p)
print(torch.equal(back, img))
ov = img.unfold(3, 4, 2)
print(ov.shape, ov.stride())
ov_cols = F.unfold(img, kernel_size=(1, 4), stride=(1, 2))
counts = F.fold(torch.ones_like(ov_cols), output_size=(6, 6), kernel_size=(1, 4), stride=(1, 2))
print(counts[0, 0, 0])
w = torch.arange(6.0, requires_grad=True)
win = w.unfold(0, 3, 1)
(win * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad, win.grad_fn.__class__.__name__)
img.unfold(2, p, p)[0, 0, 0, 0, 0] = -1
print(img[0, 0, 0, :3])
sig = torch.arange(10.0)
frames = sig.unfold(0, 4, 3)
print(frames, frames.stride(), frames.storage_offset())
print(sig.unfold(0, 4, 3)[1:].storage_offset(), sig[2:].unfold(0, 2, 4).storage_offset())
