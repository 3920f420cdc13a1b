# Hand-rolled mixed precision (before torch.cuda.amp): half tensors overflow to inf, a static
# loss scale, checking grads for inf/nan, unscaling in float32, and finfo-driven guards.
import torch

fi = torch.finfo(torch.float16)
print("fp16 max", fi.max, "tiny", fi.tiny, "eps", fi.eps, "bits", fi.bits, "res", fi.resolution)
print("smallest_normal", fi.smallest_normal, "min", fi.min)
bf = torch.finfo(torch.bfloat16)
print("bf16 max", bf.max, "eps", bf.eps, "tiny", bf.tiny)

x = torch.tensor([60000.0, 65504.0, 65519.0, 65520.0, 70000.0, -1e5]).half()
print("cast", x)
print("x*2", x[:2] * 2)
print("x+x", (x[:1] + x[:1]), torch.isinf(x))
big = torch.full((4,), 300.0, dtype=torch.float16)
print("square", big * big, (big * big).isinf().any().item())
print("sum in fp16", torch.full((1000,), 100.0, dtype=torch.float16).sum())
print("sum dtype=f32", torch.full((1000,), 100.0, dtype=torch.float16).sum(dtype=torch.float32))

# rounding: spacing grows with magnitude
for v in [1.0, 1000.0, 2048.0, 2049.0, 4097.0, 0.1, 1e-5, 1e-8]:
    h = torch.tensor(v).half()
    print(f"{v!r:>8} -> {h.item()!r} {h}")
print("1+eps/2", torch.tensor(1.0, dtype=torch.float16) + fi.eps / 2)
print("spacing", torch.nextafter(torch.tensor([1.0, 2048.0], dtype=torch.float16),
                                  torch.tensor([2.0, 4096.0], dtype=torch.float16)))

# tiny model in half with a static loss scale
w = torch.linspace(-1, 1, 8, dtype=torch.float16).reshape(4, 2).requires_grad_()
inp = torch.linspace(0, 3, 12, dtype=torch.float16).reshape(6, 2)
target = torch.arange(6, dtype=torch.float16)[:, None] * 0.1
for scale in [1.0, 1024.0, 65536.0, 2.0 ** 24]:
    w.grad = None
    out = (inp @ w.t()).sum(1, keepdim=True)
    loss = ((out - target) ** 2).mean()
    (loss * scale).backward()
    g = w.grad
    finite = torch.isfinite(g).all().item()
    unscaled = g.float() / scale
    print(f"scale={scale:>10.0f} loss={loss.item():.4f} dtype={loss.dtype} finite={finite}",
          f"gnorm={unscaled.norm().item():.3f}" if finite else "skip step")

# mixing fp16 with fp32 / python numbers
h = torch.ones(3, dtype=torch.float16)
f = torch.ones(3)
print((h + f).dtype, (h + 1.5).dtype, (h + torch.tensor(1.5)).dtype, (h * torch.tensor(2, dtype=torch.float64)).dtype)
print((h + 70000.0), (h + torch.tensor(70000.0)))
print(torch.tensor(1e-8, dtype=torch.float16) == 0, torch.tensor(1e-7, dtype=torch.float16))
print("to half back", torch.tensor([0.1, 0.2, 0.3]).half().float())
print("nan_to_num half", torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")], dtype=torch.float16)))
