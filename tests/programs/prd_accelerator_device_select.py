# Newer device-selection idioms: torch.accelerator, torch.cpu device module, default_generator, deprecated cpu.amp spellings.
import warnings
import torch
import torch.nn as nn
from torch.utils.data import random_split, TensorDataset

acc = torch.accelerator.current_accelerator()
device = acc if acc is not None else torch.device("cpu")
print("accelerator:", acc, torch.accelerator.is_available(), torch.accelerator.device_count())
print("device:", device)
for fn in (torch.accelerator.current_device_index, torch.accelerator.synchronize):
    try:
        fn()
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device())
torch.cpu.synchronize()
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())

torch.default_generator.manual_seed(11)
print(torch.initial_seed(), torch.default_generator.initial_seed())
ds = TensorDataset(torch.arange(10.0))
train, val = random_split(ds, [0.8, 0.2], generator=torch.default_generator)
print(len(train), len(val), sorted(train.indices + val.indices) == list(range(10)))
st = torch.default_generator.get_state()
a = torch.rand(3)
torch.default_generator.set_state(st)
print(torch.equal(a, torch.rand(3)))

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    ctx = torch.cpu.amp.autocast(enabled=False)
    sc = torch.cpu.amp.GradScaler(enabled=False)
print([type(x.message).__name__ for x in w], [str(x.message)[:40] for x in w])
model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    model.bias.zero_()
with ctx:
    out = model(torch.ones(1, 2))
print(out, out.dtype, sc.is_enabled())
print(torch.cuda.memory_stats(), torch.backends.cuda.is_flash_attention_available())
print(torch.backends.mkldnn.enabled, torch.backends.openmp.is_available() in (True, False))
