# Momentum-encoder updates written with the torch._foreach_* family as in timm/BYOL forks:
# per-tensor scalar lists, a tensor momentum, _foreach_lerp_ with a tensor-list weight, _foreach_addcmul_,
# out-of-place _foreach_sub/_foreach_norm diagnostics, buffers copied with _foreach_copy_, and errors.
import copy

import torch
import torch.nn as nn

online = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(online.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))
target = copy.deepcopy(online).requires_grad_(False)
with torch.no_grad():
    torch._foreach_mul_(list(target.parameters()), 0.5)

o = list(online.parameters())
t = list(target.parameters())
print("diff norms", [round(v.item(), 4) for v in torch._foreach_norm(torch._foreach_sub(o, t))])

with torch.no_grad():
    torch._foreach_mul_(t, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    torch._foreach_add_(t, o, alpha=0.1)
print("after scalar list", [round(v.item(), 4) for v in torch._foreach_norm(t)])

m = torch.tensor(0.99)
with torch.no_grad():
    torch._foreach_mul_(t, m)
    torch._foreach_add_(t, torch._foreach_mul(o, 1 - m))
print("tensor momentum", t[0].round(decimals=4))

weights = [torch.full_like(p, 0.25) for p in t]
with torch.no_grad():
    torch._foreach_lerp_(t, o, weights)
print("lerp tensor weights", t[-1].round(decimals=4))

with torch.no_grad():
    torch._foreach_addcmul_(t, o, o, value=-0.01)
    torch._foreach_addcdiv_(t, o, torch._foreach_add(torch._foreach_abs(o), 1.0), [0.1] * len(t))
print("addcmul/addcdiv", t[1].round(decimals=4))

online.train()
online(torch.linspace(-1, 1, 12).view(4, 3))
ob = [b for b in online.buffers() if b.is_floating_point()]
tb = [b for b in target.buffers() if b.is_floating_point()]
torch._foreach_copy_(tb, ob)
print("copied buffers", [b.round(decimals=4) for b in tb])
print("max", [v.item() for v in torch._foreach_max([x.detach() for x in o])])
print("sqrt", torch._foreach_sqrt([torch.tensor([4.0, 9.0])])[0])
print("maximum_", torch._foreach_maximum([torch.tensor([1.0, -2.0])], [torch.tensor([0.0, 0.0])])[0])
print("pow", torch._foreach_pow([torch.tensor([2.0, 3.0])], 2)[0], torch._foreach_pow(2.0, [torch.tensor([1.0, 3.0])])[0])

for bad in [lambda: torch._foreach_add_(t, o[:2]),
            lambda: torch._foreach_mul_(t, [0.5, 0.5]),
            lambda: torch._foreach_lerp_(t, o, weights[:1]),
            lambda: torch._foreach_add_([], [])]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
