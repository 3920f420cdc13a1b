# Global defaults set at the top of training scripts: default dtype/device, interop threads, warn_always, flush_denormal.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else ("mps" if torch.backends.mps.is_available() else "cpu")
print(device)
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.tensor([1.0]).dtype, torch.zeros(2).dtype, nn.Linear(2, 2).weight.dtype)
print(torch.arange(3).dtype, torch.arange(3.0).dtype, torch.tensor(1.5).dtype, torch.tensor([1, 2]).dtype)
torch.set_default_dtype(torch.float32)
print(torch.get_default_dtype(), torch.tensor(1.5).dtype)
try:
    torch.set_default_dtype(torch.int64)
except Exception as e:
    print(type(e).__name__, e)

torch.set_default_device(device)
print(torch.get_default_device(), torch.zeros(1).device, nn.Linear(1, 1).weight.device)
with torch.device("cpu"):
    print(torch.ones(2).device)
torch.set_default_device(None)
print(torch.get_default_device())

print(isinstance(torch.get_num_interop_threads(), int), torch.get_num_threads() >= 1)
torch.set_num_threads(2)
print(torch.get_num_threads())
try:
    torch.set_num_threads(0)
except Exception as e:
    print(type(e).__name__, str(e)[:50])
torch.set_warn_always(True)
print(torch.is_warn_always_enabled())
torch.set_warn_always(False)
print(torch.is_warn_always_enabled())
print(torch.set_flush_denormal(True), torch.set_flush_denormal(False))
print(torch.typename(torch.zeros(1)), torch.typename(torch.zeros(1, dtype=torch.int64)), torch.typename(nn.Linear(1, 1)))
print(torch.is_tensor(torch.zeros(1)), torch.is_floating_point(torch.zeros(1)), torch.is_storage(torch.zeros(1)))
print(torch.zeros(1).type(), torch.zeros(1).double().type())
fp = torch.finfo(torch.float32)
print(fp.eps, fp.max, fp.tiny, torch.iinfo(torch.int32).max, torch.finfo(torch.float16).eps)
print(torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float32, torch.int32))
print(torch.float32.is_floating_point, torch.float32.itemsize, torch.float64.is_complex)
