# BatchNorm bookkeeping over a few deterministic training steps: running_mean/var updates (the
# unbiased variance), momentum, momentum=None (cumulative average), affine=False,
# track_running_stats=False, eval mode, and the state_dict entries.
import torch
import torch.nn as nn
import torch.nn.functional as F

batches = [torch.sin(torch.arange(12, dtype=torch.float32) * 1.3 + k).view(4, 3) * (k + 1) + torch.tensor([0.0, 5.0, -2.0])
           for k in range(3)]

bn = nn.BatchNorm1d(3)
print(bn, bn.running_mean, bn.running_var, bn.num_batches_tracked)
for step, b in enumerate(batches):
    out = bn(b)
    print(step, bn.running_mean, bn.running_var, bn.num_batches_tracked.item())
print(out)
print(out.mean(0).abs().max().item() < 1e-6, out.var(0, unbiased=False))
bn.eval()
print(bn.training, bn(batches[0]))

cumulative = nn.BatchNorm1d(3, momentum=None)
for b in batches:
    cumulative(b)
print(cumulative.running_mean, cumulative.running_var)
print(torch.stack(batches).mean(dim=(0, 1)), torch.stack([b.var(0) for b in batches]).mean(0))

fast = nn.BatchNorm1d(3, momentum=0.5, eps=1e-3, affine=False)
for b in batches:
    fast(b)
print(fast, fast.running_mean, fast.weight, [n for n, _ in fast.named_parameters()])

no_stats = nn.BatchNorm1d(3, track_running_stats=False)
print(no_stats, no_stats.running_mean, list(no_stats.state_dict().keys()))
no_stats.eval()
print(no_stats(batches[1]))  # still uses batch statistics in eval
print(list(bn.state_dict().keys()), bn.state_dict()["num_batches_tracked"].dtype)

# BatchNorm2d: statistics per channel over (N, H, W)
images = torch.cos(torch.arange(2 * 2 * 3 * 3, dtype=torch.float32) * 0.4).view(2, 2, 3, 3)
bn2 = nn.BatchNorm2d(2, momentum=0.2)
with torch.no_grad():
    bn2.weight.copy_(torch.tensor([2.0, 0.5]))
    bn2.bias.copy_(torch.tensor([0.1, -0.1]))
y = bn2(images)
print(bn2.running_mean, bn2.running_var)
print(y[1, 0], (y.mean(dim=(0, 2, 3)) - bn2.bias).abs().max().item() < 1e-6)
y.pow(2).sum().backward()
print(bn2.weight.grad, bn2.bias.grad)
bn2.eval()
print(bn2(images)[0, 1])

# the functional form, in training and in eval
rm, rv = torch.zeros(3), torch.ones(3)
print(F.batch_norm(batches[0], rm, rv, training=True, momentum=0.3), rm, rv)
print(F.batch_norm(batches[0], rm, rv, weight=torch.tensor([1.0, 2.0, 3.0]), training=False))

# gradients through training-mode batch norm depend on every sample in the batch
x = batches[0].clone().requires_grad_()
bn_train = nn.BatchNorm1d(3)
(bn_train(x) * torch.arange(12.).view(4, 3) ** 2).sum().backward()
print(x.grad)

bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.BatchNorm2d(3)(torch.ones(2, 3))
except ValueError as e:
    print("ValueError:", e)
