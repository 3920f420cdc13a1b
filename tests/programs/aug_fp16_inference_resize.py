# Mixed-precision inference pipelines resizing float16 feature maps and masks: nearest,
# bilinear, bicubic and nearest-exact on half tensors (CPU), upsampled logits argmax'ed into a
# mask, results cast back to float32 for printing; the half gradients of a resize.
import torch
import torch.nn.functional as F

logits = (((torch.arange(2 * 3 * 5 * 6).view(2, 3, 5, 6) * 13) % 29) / 7 - 2).half()
for mode, kw in (("nearest", {}), ("nearest-exact", {}), ("bilinear", {"align_corners": False}),
                 ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": False})):
    up = F.interpolate(logits, size=(9, 11), mode=mode, **kw)
    mask = up.argmax(1)
    print(mode, kw, up.dtype, tuple(up.shape), mask[0, ::3].tolist())
    print("  ", up[1, 2, 4].float().tolist())
seq = (torch.arange(10) % 4).half().view(1, 1, 10)
print(F.interpolate(seq, size=7, mode="linear").float())
print(F.interpolate(seq, scale_factor=1.5, mode="linear", align_corners=True).float())

x = logits[:1, :1].clone().float().requires_grad_(True)
y = F.interpolate(x.half(), size=(8, 8), mode="bilinear", align_corners=False)
(y.float() * torch.arange(8.0)).sum().backward()
torch.set_printoptions(precision=4)
print(x.grad[0, 0])
torch.set_printoptions(profile="default")
