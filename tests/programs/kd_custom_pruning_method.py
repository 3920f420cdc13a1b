# A user-defined pruning method (subclass of BasePruningMethod) combined with
# random_structured / ln_structured, inspecting the PruningContainer history.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class ThresholdPruning(prune.BasePruningMethod):
    """Prune every entry whose magnitude is below a fixed threshold."""
    PRUNING_TYPE = "unstructured"

    def __init__(self, threshold):
        self.threshold = threshold

    def compute_mask(self, t, default_mask):
        return default_mask * (t.abs() > self.threshold).to(default_mask.dtype)


def threshold_prune(module, name, threshold):
    ThresholdPruning.apply(module, name, threshold=threshold)
    return module


class EveryOtherRow(prune.BasePruningMethod):
    PRUNING_TYPE = "structured"
    dim = 0

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask[1::2] = 0
        return mask


lin = nn.Linear(5, 6)
with torch.no_grad():
    lin.weight.copy_(torch.sin(torch.arange(30, dtype=torch.float32) * 0.8).reshape(6, 5))
threshold_prune(lin, "weight", threshold=0.5)
print(lin.weight_mask)
print("sparsity:", f"{1 - lin.weight_mask.mean().item():.3f}")
hook = [h for h in lin._forward_pre_hooks.values()][0]
print(type(hook).__name__, hook.threshold, hook._tensor_name)

EveryOtherRow.apply(lin, "weight")
container = [h for h in lin._forward_pre_hooks.values()][0]
print(type(container).__name__, [type(m).__name__ for m in container._pruning_methods])
print(lin.weight_mask.sum(1).tolist())
prune.ln_structured(lin, "weight", amount=1, n=float("inf"), dim=1)
print(lin.weight_mask.sum(0).tolist())
print(len(container._pruning_methods), len(lin._forward_pre_hooks))

y = lin(torch.ones(2, 5))
print(y.shape, type(y.grad_fn).__name__)
prune.remove(lin, "weight")
print(lin.weight)
print([n for n, _ in lin.named_parameters()], list(lin._forward_pre_hooks))

conv = nn.Conv1d(3, 4, 2)
prune.random_structured(conv, "weight", amount=2, dim=0)
m = conv.weight_mask
print(m.shape, int(m.flatten(1).any(1).sum()), "channels kept")
try:
    prune.ln_structured(conv, "weight", amount=0.5, n=2, dim=5)
except IndexError as e:
    print(type(e).__name__, e)
conv = nn.Conv1d(3, 4, 2)
try:
    prune.l1_unstructured(conv, "weight", amount=1000)
except ValueError as e:
    print(type(e).__name__, e)
try:
    prune.l1_unstructured(conv, "nonexistent", amount=0.1)
except AttributeError as e:
    print(type(e).__name__, e)
try:
    prune.global_unstructured([(conv, "bias")], pruning_method=prune.LnStructured, amount=1)
except TypeError as e:
    print(type(e).__name__, e)
