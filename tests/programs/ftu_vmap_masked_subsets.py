# vmapped per-example computations over a data-dependent subset of the batch (only the
# misclassified examples, only positives...), as in influence / hard-example mining code built on
# the torch.func tutorials: the subset can be empty, and vmap then returns empty results.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jacrev, vmap

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -0.5, 0.2], [-0.3, 0.8, 0.1]]))
    model.bias.copy_(torch.tensor([0.1, -0.1]))
params = {k: v.detach() for k, v in model.named_parameters()}

x = torch.linspace(-1, 1, 18).view(6, 3)
y = torch.tensor([0, 1, 0, 1, 1, 0])


def loss_fn(params, xi, yi):
    return F.cross_entropy(functional_call(model, params, (xi.unsqueeze(0),)), yi.unsqueeze(0))


per_example_grad = vmap(grad(loss_fn), in_dims=(None, 0, 0))


def hard_example_grads(threshold):
    with torch.no_grad():
        probs = model(x).softmax(-1)
    p_true = probs.gather(1, y.unsqueeze(1)).squeeze(1)
    hard = p_true < threshold
    grads = per_example_grad(params, x[hard], y[hard])
    return hard, grads


for threshold in (0.6, 0.5, 0.3, 0.0):
    hard, grads = hard_example_grads(threshold)
    shapes = {k: tuple(v.shape) for k, v in grads.items()}
    print(f"threshold {threshold}: {int(hard.sum())} hard examples {shapes}")
    if hard.any():
        print("  mean grad of bias:", grads["bias"].mean(0).round(decimals=4))
    else:
        print("  sum over an empty subset:", grads["bias"].sum(0), grads["weight"].dtype)

# per-example input Jacobians of the logits for an empty selection
empty = x[y > 5]
jac = vmap(jacrev(lambda xi: model(xi)))(empty)
print("empty jacobians:", tuple(jac.shape), jac.requires_grad)

# outputs with several out_dims, and unbatched outputs, over an empty batch
out = vmap(lambda xi: (model(xi), xi.sum(), torch.ones(2)), out_dims=(1, 0, None))(empty)
print([tuple(o.shape) for o in out], out[2])

# integer and boolean outputs keep their dtype
flags = vmap(lambda xi: (xi > 0).any())(empty)
counts = vmap(lambda xi: (xi > 0).sum())(x)
print(flags, flags.dtype, counts)

# nested vmap where the inner dimension is empty
pairwise = vmap(vmap(lambda a, b: (a - b).norm(), in_dims=(None, 0)), in_dims=(0, None))(x, empty)
print("pairwise:", tuple(pairwise.shape))
