# Using pruning methods as plain objects (method.prune(t), compute_mask) and the
# module-level API's corner cases: int amounts, bool masks, importance score checks.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

t = torch.tensor([[0.3, -1.2, 0.05, 2.0], [-0.7, 0.01, 1.5, -0.2], [0.9, -0.4, 0.6, 0.0]])
print(prune.L1Unstructured(amount=0.5).prune(t))
print(prune.L1Unstructured(amount=3).compute_mask(t, torch.ones_like(t)))
print(prune.LnStructured(amount=1, n=2, dim=0).prune(t))
print(prune.LnStructured(amount=0.5, n=1, dim=1).prune(t))
print(prune.LnStructured(amount=1, n=float("-inf"), dim=1).compute_mask(t, torch.ones_like(t)))
prior = torch.tensor([[1.0, 1, 0, 1], [1, 1, 1, 1], [0, 1, 1, 1]])
print(prune.L1Unstructured(amount=2).compute_mask(t, prior))
print(prune.Identity().prune(t).equal(t))
scores = torch.arange(12.0).reshape(3, 4)
print(prune.L1Unstructured(amount=4).prune(t, importance_scores=scores))

lin = nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(t)
bool_mask = t.abs() > 0.5
prune.custom_from_mask(lin, "weight", bool_mask)
print(lin.weight_mask.dtype, lin.weight.dtype)
print(lin.weight)
prune.l1_unstructured(lin, "weight", amount=2, importance_scores=scores.flip(0))
print(lin.weight_mask)
hook = list(lin._forward_pre_hooks.values())[0]
print([(type(m).__name__, m.PRUNING_TYPE) for m in hook], hook._tensor_name)
print(nn.utils.parameters_to_vector(lin.parameters()).shape)

lin2 = nn.Linear(4, 3)
for bad in [torch.ones(3), torch.ones(3, 4, 1)]:
    try:
        prune.l1_unstructured(lin2, "weight", amount=1, importance_scores=bad)
    except AssertionError as e:
        print(type(e).__name__, str(e).split(" of ")[0])
print([n for n, _ in lin2.named_parameters()], prune.is_pruned(lin2))
try:
    prune.remove(lin2, "weight")
except ValueError as e:
    print(type(e).__name__, str(e).split(" in ")[0])
try:
    prune.L1Unstructured(amount="half")
except TypeError as e:
    print(type(e).__name__, e)
try:
    prune.PruningContainer(prune.L1Unstructured(amount=1), "oops")
except (TypeError, AttributeError) as e:
    print(type(e).__name__, e)
try:
    prune.LnStructured(amount=1, n=2, dim=0).prune(torch.ones(5))
except ValueError as e:
    print(type(e).__name__, e)
try:
    prune.global_unstructured([(lin2, "weight"), (lin2, "bias")], pruning_method=prune.L1Unstructured, amount=100)
except ValueError as e:
    print(type(e).__name__, e)
prune.global_unstructured([(lin2, "weight"), (lin2, "bias")], pruning_method=prune.RandomUnstructured, amount=5)
print(int((lin2.weight_mask == 0).sum() + (lin2.bias_mask == 0).sum()), sorted(lin2.state_dict()))
