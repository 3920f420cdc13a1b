# Logging metrics with f-strings straight on tensors: format specs on 0-d tensors
# (f"{loss:.4f}", f"{acc:>10}", "%.3f" % t, "{:e}".format(t)) and what fails on 1-d tensors.
import torch

loss = torch.tensor(0.123456789)
acc = torch.tensor(0.875, dtype=torch.float64)
step = torch.tensor(42)
flag = torch.tensor(True)
half = torch.tensor(1.5, dtype=torch.float16)

print(f"loss={loss:.4f} acc={acc:.2%} step={step:05d}")
print(f"[{loss:>12.3f}] [{loss:<12.3f}] [{loss:^12.3f}]")
print(f"{loss:e} {loss:.2e} {loss:g} {loss:.3g}")
print(f"{step:>6} {step:x} {step:b} {step:+d}")
print(f"{acc} | {acc!r} | {acc!s}")
print(f"{loss} | {step} | {flag} | {half}")
print("%.3f %d %s" % (loss, step, step))
print("{:.2f} / {:>8.1f}".format(loss, acc))
print(format(loss, ""), format(step, ""))
print(f"{half:.3f} {flag}")

lossg = (torch.tensor(2.0, requires_grad=True) * 3.0)
print(f"{lossg:.2f}")
print(f"{lossg}")
print(str(lossg), repr(lossg))

vec = torch.tensor([1.0, 2.0])
try:
    print(f"{vec:.2f}")
except Exception as e:
    print(type(e).__name__, e)
print(f"{vec}")
print(format(vec, ""))
one = torch.tensor([3.25])
try:
    print(f"{one:.1f}")
except Exception as e:
    print(type(e).__name__, e)

for i, l in enumerate(torch.linspace(1.0, 0.1, 4)):
    print(f"epoch {i:2d} | loss {l:7.4f} | lr {1e-3 * (0.5 ** i):.1e}")

print(f"{torch.tensor(1e-7):.3e}", f"{torch.tensor(123456.0):,.1f}")
print(f"{torch.tensor(-0.0):.2f}", f"{torch.tensor(float('inf')):.2f}", f"{torch.tensor(float('nan'))}")
print(f"{torch.tensor(7, dtype=torch.uint8):03d}", f"{torch.tensor(-3, dtype=torch.int8)}")
print(round(loss.item(), 3), float(loss), int(step), bool(flag))
c = torch.tensor(1 + 2j)
print(f"{c}", repr(c))
try:
    print(f"{c:.2f}")
except Exception as e:
    print(type(e).__name__, e)
