# Pruning beyond the one-liners: a custom BasePruningMethod subclass (structured, PRUNING_TYPE
# "structured" along dim 0) applied via its classmethod, amount validation errors, importance
# scores, bias pruning, iterative pruning histories in the PruningContainer, and prune.remove.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class RowNormPruning(prune.BasePruningMethod):
    """Zero out the rows (output units) with the smallest mean |w|."""
    PRUNING_TYPE = "structured"

    def __init__(self, rows, dim=0):
        self.rows = rows
        self.dim = dim

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        score = t.abs().mean(dim=1)
        idx = torch.argsort(score)[: self.rows]
        mask[idx] = 0
        return mask

    @classmethod
    def apply(cls, module, name, rows):
        return super(RowNormPruning, cls).apply(module, name, rows=rows)


fc = nn.Linear(5, 6)
with torch.no_grad():
    fc.weight.copy_(torch.sin(torch.arange(30, dtype=torch.float32) * 1.7).view(6, 5))
    fc.bias.copy_(torch.linspace(-0.6, 0.5, 6))

method = RowNormPruning.apply(fc, "weight", rows=2)
print(type(method).__name__, method.rows, method._tensor_name)
print(fc.weight_mask.sum(dim=1))
print(fc.weight.abs().mean(dim=1))

prune.l1_unstructured(fc, "weight", amount=4)
hook = fc._forward_pre_hooks[list(fc._forward_pre_hooks)[0]]
print(type(hook).__name__, [type(m).__name__ for m in hook._pruning_methods])
print(int((fc.weight == 0).sum()), int(fc.weight_mask.sum()))

prune.ln_structured(fc, "weight", amount=1, n=1, dim=1)
print([type(m).__name__ for m in hook._pruning_methods], int((fc.weight == 0).sum()))
print(fc.weight_mask)

scores = torch.arange(6, dtype=torch.float32)
prune.l1_unstructured(fc, "bias", amount=0.5, importance_scores=scores)
print(fc.bias_mask, fc.bias)
print(sorted(fc.state_dict().keys()), len(fc._forward_pre_hooks))

for amount in [1.5, -0.1, 100, "half"]:
    try:
        prune.l1_unstructured(nn.Linear(3, 3), "weight", amount=amount)
        print(amount, "ok")
    except Exception as e:
        print(amount, type(e).__name__, e)
try:
    prune.l1_unstructured(nn.Linear(3, 3), "weights", amount=1)
except Exception as e:
    print(type(e).__name__, e)
try:
    prune.l1_unstructured(nn.Linear(3, 3), "weight", amount=2, importance_scores=torch.ones(2, 2))
except Exception as e:
    print(type(e).__name__, str(e)[:80])

r = nn.Linear(4, 8)
prune.random_structured(r, "weight", amount=0.25, dim=0)
print(int((r.weight_mask.sum(1) == 0).sum()), r.weight_mask.sum().item())
prune.random_unstructured(r, "bias", amount=3)
print(int((r.bias_mask == 0).sum()))

x = torch.linspace(-1, 1, 10).view(2, 5)
out = fc(x)
out.sum().backward()
print(out)
print(fc.weight_orig.grad)
prune.remove(fc, "weight")
prune.remove(fc, "bias")
print(sorted(fc.state_dict().keys()), len(fc._forward_pre_hooks), type(fc.weight).__name__)
print(int((fc.weight == 0).sum()), fc.weight.requires_grad, fc.weight.is_leaf)
try:
    prune.remove(fc, "weight")
except ValueError as e:
    print("ValueError", e)
