# A custom pruning method subclassing prune.BasePruningMethod (as in the PyTorch pruning
# tutorial), pruning with importance_scores, iterative pruning containers and their
# state_dict, and copying a pruned model with deepcopy.
import copy
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class EveryOther(prune.BasePruningMethod):
    """Prune every other entry of the flattened tensor."""
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def every_other(module, name):
    EveryOther.apply(module, name)
    return module


lin = nn.Linear(3, 4)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.).view(4, 3) - 6)
    lin.bias.copy_(torch.tensor([3.0, -1.0, 0.5, -2.0]))
every_other(lin, "bias")
print(lin.bias_mask, lin.bias)
print(list(lin._forward_pre_hooks.values())[0].__class__.__name__)

scores = torch.arange(12.).flip(0).view(4, 3)
prune.l1_unstructured(lin, "weight", amount=0.25, importance_scores=scores)
print(lin.weight_mask)
prune.ln_structured(lin, "weight", amount=0.5, n=1, dim=1)
print(lin.weight_mask)
cont = lin._forward_pre_hooks
for k, h in cont.items():
    print(type(h).__name__, getattr(h, "_tensor_name", None), len(h) if isinstance(h, prune.PruningContainer) else "-")

print(list(lin.state_dict().keys()))
x = torch.ones(2, 3)
print(lin(x))

try:
    copy.deepcopy(lin)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:100])
sd = lin.state_dict()
clone = nn.Linear(3, 4)
prune.identity(clone, "weight")
prune.identity(clone, "bias")
clone.load_state_dict(sd)
print(prune.is_pruned(clone), torch.equal(clone.weight, lin.weight), clone.weight_orig is lin.weight_orig)
prune.remove(clone, "weight")
prune.remove(clone, "bias")
clone = copy.deepcopy(clone)
with torch.no_grad():
    clone.weight.fill_(1.0)
print(clone(x))
print(lin(x))

sd = lin.state_dict()
fresh = nn.Linear(3, 4)
res = fresh.load_state_dict(sd, strict=False)
print(sorted(res.missing_keys), sorted(res.unexpected_keys))
prune.identity(fresh, "weight")
prune.identity(fresh, "bias")
print(fresh.load_state_dict(sd))
print(fresh(x))

ps = prune.L1Unstructured(amount=0.5)
m = ps.compute_mask(torch.tensor([3.0, -1.0, 0.5, -2.0]), torch.ones(4))
print(m, ps.PRUNING_TYPE)
pruned = ps.prune(torch.tensor([3.0, -1.0, 0.5, -2.0]))
print(pruned)
rs = prune.LnStructured(amount=1, n=float("inf"), dim=0)
print(rs.compute_mask(torch.tensor([[1.0, 5.0], [2.0, 2.0]]), torch.ones(2, 2)))
try:
    prune.global_unstructured([(lin, "weight")], pruning_method=prune.LnStructured, amount=0.2)
except TypeError as e:
    print(type(e).__name__, e)
