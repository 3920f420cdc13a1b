# The meta device as model code meets it: factories and layers with device="meta", the
# default-device context, shapes through operations and a layer, .to("meta") of a deep copy
# for functional_call (the model-ensembling tutorial), to_empty, and what has no data to give.
import copy
import torch
import torch.nn as nn
x = torch.empty(3, 4, device="meta")
print(x, x.device, x.is_meta, x.shape, x.dtype)
print(torch.zeros(2, dtype=torch.int64, device="meta"))
print(torch.randn(2, 3, device="meta", requires_grad=True))
y = x * 2 + 1
print(y.is_meta, y.shape, (x @ torch.empty(4, 5, device="meta")).shape)
with torch.device("meta"):
    lin = nn.Linear(4, 3)
    b = torch.arange(5)
print(lin.weight, lin.weight.is_meta, b)
print(lin)
out = lin(torch.empty(2, 4, device="meta"))
print(out.shape, out.is_meta, out.requires_grad, out.grad_fn is not None)
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
base = copy.deepcopy(m).to("meta")
print(base[0].weight.device, base[0].weight.shape, base[0].weight.is_meta, base[0].bias.requires_grad)
from torch.func import functional_call
params = {k: v.detach() for k, v in m.named_parameters()}
print(functional_call(base, params, (torch.ones(1, 2),)).shape)
e = base.to_empty(device="cpu")
print(e is base, base[0].weight.device, base[0].weight.shape, base[0].weight.is_meta)
for f in (lambda: x.tolist(), lambda: x.item(), lambda: x.numpy(), lambda: torch.zeros(3, 4).copy_(x), lambda: x.sum().item()):
    try: print(f())
    except Exception as e: print(type(e).__name__, str(e)[:120])
z = torch.empty(2, device="meta"); torch.nn.init.normal_(z); print(z)
z.add_(1); print(z)
print(torch.empty_like(x).device, torch.zeros_like(x, device="cpu").device, x.to("cpu") if False else "")
print(x.new_zeros(2).device, x.cpu() if False else "")
print(repr(torch.empty(0, device="meta")), repr(torch.empty((), device="meta")))
print(torch.nn.Parameter(torch.empty(2, device="meta")))
