# A BYOL target-network EMA written with torch._foreach_* and the mistakes people make first:
# passing model.parameters() (a generator) or a single tensor instead of a list, a packed tensor of
# momenta of the wrong length; then the fixed version and a check that the target moved.
import copy

import torch
import torch.nn as nn

online = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(online.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p))
target = copy.deepcopy(online)
target.requires_grad_(False)
with torch.no_grad():
    for p in target.parameters():
        p.mul_(0.5)

tau = 0.99
attempts = {
    "generator": lambda: torch._foreach_mul_(target.parameters(), tau),
    "single tensor": lambda: torch._foreach_mul_(target[0].weight, tau),
    "lerp generators": lambda: torch._foreach_lerp_(target.parameters(), online.parameters(), 1 - tau),
    "add_ with alpha": lambda: torch._foreach_add_(target.parameters(), list(online.parameters()), alpha=1 - tau),
    "norm of generator": lambda: torch._foreach_norm(p.grad for p in online.parameters()),
    "None in list": lambda: torch._foreach_mul_([p.grad for p in online.parameters()], 0.5),
    "packed momenta": lambda: torch._foreach_addcmul_(list(target.parameters()), list(online.parameters()),
                                                       list(online.parameters()), torch.tensor([0.1, 0.2])),
    "0-d packed": lambda: torch._foreach_addcdiv_(list(target.parameters()), list(online.parameters()),
                                                   list(online.parameters()), torch.tensor(0.1)),
    "lerp tensor weight": lambda: torch._foreach_lerp_(list(target.parameters()), list(online.parameters()),
                                                        torch.full((4,), 0.01)),
    "short end list": lambda: torch._foreach_addcmul_(list(target.parameters()), list(online.parameters())[:2],
                                                       list(online.parameters())),
}
for name, attempt in attempts.items():
    try:
        with torch.no_grad():
            attempt()
        print(name, "-> ok")
    except Exception as e:
        print(name, "->", type(e).__name__, e)

before = [p.clone() for p in target.parameters()]
t_params, o_params = list(target.parameters()), list(online.parameters())
with torch.no_grad():
    torch._foreach_lerp_(t_params, o_params, torch.tensor(1 - tau))
    torch._foreach_addcmul_(t_params, o_params, o_params, torch.full((len(t_params),), 1e-3))
moved = torch._foreach_norm(torch._foreach_sub(t_params, before))
print("moved", [f"{m.item():.5f}" for m in moved])
print("target w", target[2].weight.round(decimals=4))
