# Pruned models in practice: a custom BasePruningMethod (prune every other weight), applying it via
# a function, deepcopy / torch.save of a pruned model, loading a pruned state_dict into a fresh
# model (weight_orig / weight_mask keys), and pruning a parameter shared through apply().
import copy
import io
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class EveryOtherPruning(prune.BasePruningMethod):
    """Prune every other entry of the flattened tensor."""
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def every_other_unstructured(module, name):
    EveryOtherPruning.apply(module, name)
    return module


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def init(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-1, 1, m.weight.numel()).view_as(m.weight))
            m.bias.fill_(0.05)


model = Tiny()
model.apply(init)
every_other_unstructured(model.fc1, name="bias")
print(model.fc1.bias_mask, model.fc1.bias)
print(EveryOtherPruning.PRUNING_TYPE, type(model.fc1._forward_pre_hooks[next(iter(model.fc1._forward_pre_hooks))]).__name__)
prune.l1_unstructured(model.fc1, "weight", amount=0.5)
prune.ln_structured(model.fc2, "weight", amount=1, n=float("inf"), dim=1)
print(model.fc2.weight_mask)

x = torch.stack([torch.linspace(0, 1, 3), torch.linspace(1, 0, 3), torch.ones(3), -torch.ones(3)], 1)
ref = model(x).detach()
print(ref)

try:
    copy.deepcopy(model)
except RuntimeError as e:
    print(type(e).__name__, e)
# after a forward pass under no_grad the computed weight is a leaf and deepcopy works
with torch.no_grad():
    model(x)
clone = copy.deepcopy(model)
print(torch.equal(clone(x), ref), prune.is_pruned(clone), sorted(clone.state_dict().keys()))
with torch.no_grad():
    clone.fc1.weight_orig.add_(1.0)
print(torch.equal(model(x), ref), torch.equal(clone.fc1.weight_mask, model.fc1.weight_mask))
print((clone.fc1.weight == 0).sum().item(), (clone.fc1.weight_orig == 0).sum().item())

buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
fresh = Tiny()
try:
    fresh.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(sorted(str(e).split("Unexpected key(s) in state_dict: ")[1].split(". ")[0].replace('"', "").split(", ")))

# the usual fix: prune the fresh model with identity first, then load
prune.identity(fresh.fc1, "weight"); prune.identity(fresh.fc1, "bias"); prune.identity(fresh.fc2, "weight")
print(fresh.load_state_dict(sd))
print(torch.equal(fresh(x), ref))

# whole-model pickling keeps the hooks
buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=False)
print(torch.equal(loaded(x), ref), len(loaded.fc1._forward_pre_hooks))

# removing makes the pruning permanent and the model loads into a plain one
for m, n in [(model.fc1, "weight"), (model.fc1, "bias"), (model.fc2, "weight")]:
    prune.remove(m, n)
plain = Tiny()
print(plain.load_state_dict(model.state_dict()))
print(torch.equal(plain(x), ref), len(model.fc1._forward_pre_hooks))
print(f"sparsity {sum((p == 0).sum().item() for p in plain.parameters()) / sum(p.numel() for p in plain.parameters()):.3f}")
