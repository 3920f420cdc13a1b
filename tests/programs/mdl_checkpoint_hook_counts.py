# Activation checkpointing + forward hooks: users count how often hooks fire (forward, recompute
# in backward) with checkpoint(use_reentrant=True/False) and checkpoint_sequential.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

block = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3))
calls = []
block[0].register_forward_hook(lambda m, i, o: calls.append(("fwd", torch.is_grad_enabled())))
block[0].register_forward_pre_hook(lambda m, i: calls.append(("pre", torch.is_grad_enabled())))
block[2].register_full_backward_hook(lambda m, gi, go: calls.append(("bwd", tuple(gi[0].shape))))
x = torch.ones(2, 3, requires_grad=True)
for reentrant in [True, False]:
    calls.clear()
    y = checkpoint(block, x, use_reentrant=reentrant)
    print(reentrant, calls, y.grad_fn.name())
    calls.clear()
    y.sum().backward()
    print(reentrant, calls)
calls.clear()
y = checkpoint_sequential(block, 2, x, use_reentrant=False)
y.sum().backward()
print(calls)
