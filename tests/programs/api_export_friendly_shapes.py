# Shape arithmetic written with torch.sym_* helpers so that it also traces under torch.export
# (padding to a multiple, ceil-div, clamped windows), plus the process-wide switches that training
# scripts set in their boilerplate (deterministic debug mode, anomaly mode, build flags).
import torch
import torch.nn.functional as F


def pad_to_multiple(x, multiple):
    length = x.shape[-1]
    target = torch.sym_int(torch.sym_float(length + multiple - 1) // multiple) * multiple
    return F.pad(x, (0, target - length)), target


def window_sizes(length, n):
    step = torch.sym_max(1, length // n)
    return [torch.sym_min(step, length - i * step) for i in range(n)]


x = torch.arange(10.).view(1, 10)
y, target = pad_to_multiple(x, 4)
print(y.shape, target, type(target).__name__)
print(window_sizes(10, 4), window_sizes(3, 4))
print(torch.sym_max(2, 3.5), torch.sym_min(2.0, 1), torch.sym_int(-2.7), torch.sym_float(3))
print(torch.sym_not(False), torch.sym_ite(4 > 3, "wide", "narrow"), torch.sym_sum([1, 2, 3.5]))
print(torch.sym_sqrt(16), round(torch.sym_sqrt(2), 6))
try:
    torch.sym_ite(1, "a", "b")
except AssertionError as e:
    print("AssertionError:", e)

print("debug mode", torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode("warn")
print(torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled(),
      torch.is_deterministic_algorithms_warn_only_enabled())
torch.set_deterministic_debug_mode(2)
print(torch.get_deterministic_debug_mode(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.set_deterministic_debug_mode("default")
print(torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled())
for bad in ["strict", 3, 0.5]:
    try:
        torch.set_deterministic_debug_mode(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)

torch.set_anomaly_enabled(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled())

print(torch.has_lapack, torch.has_spectral)
t = torch.ones(2)
print(torch.get_device(t), t.get_device(), t.device)

w = torch.linspace(-1, 1, 6).view(2, 3).requires_grad_()
fro = torch.frobenius_norm(w, [0, 1])
nuc = torch.nuclear_norm(w)
print(fro, nuc.detach().round(decimals=4))
print(torch.frobenius_norm(w, [1], keepdim=True).grad_fn.name())
(fro + nuc).backward()
print(w.grad.round(decimals=4))
p = torch.tensor([[-1.0, 2.0], [0.3, -0.2]], requires_grad=True)
print(p.prelu(torch.tensor([0.1, 0.5])), p.hardshrink(0.25))
