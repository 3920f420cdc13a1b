# Normalization layers on sequence and image tensors: BatchNorm1d on (N, C, L) (stats over N and L),
# LayerNorm over the last two/three dims, GroupNorm, InstanceNorm2d (affine / track_running_stats),
# Dropout2d in eval vs train, their reprs, running stats, and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2, 3, 2 * 3 * 4).view(2, 3, 4) ** 2  # (N, C, L)
bn = nn.BatchNorm1d(3, momentum=0.5)
print(bn)
y = bn(x)
print(y.mean(dim=(0, 2)).abs().max() < 1e-5, y.var(dim=(0, 2), unbiased=False))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0])
print(nn.BatchNorm1d(3, affine=False, track_running_stats=False), nn.BatchNorm1d(5, eps=1e-3, momentum=None))
try:
    nn.BatchNorm1d(3)(torch.ones(1, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    nn.BatchNorm1d(4)(x)
except Exception as e:
    print(type(e).__name__, e)

# cumulative moving average with momentum=None
cma = nn.BatchNorm1d(3, momentum=None)
for k in range(3):
    cma(x + k)
print(cma.running_mean, cma.num_batches_tracked)

# LayerNorm over several trailing dims
img = torch.arange(2 * 3 * 2 * 2, dtype=torch.float32).view(2, 3, 2, 2) % 7
for shape in [[2], [2, 2], [3, 2, 2]]:
    ln = nn.LayerNorm(shape)
    out = ln(img)
    print(ln, ln.weight.shape, out[0, 0])
ln = nn.LayerNorm((2, 2), elementwise_affine=False, eps=1e-3)
print(ln, list(ln.parameters()), ln(img)[1, 2])
print(nn.LayerNorm(4, bias=False), [n for n, _ in nn.LayerNorm(4, bias=False).named_parameters()])
print(F.layer_norm(img, (2, 2))[0, 1])
try:
    nn.LayerNorm([3, 2])(img)
except Exception as e:
    print(type(e).__name__, e)

# gradient through BatchNorm1d in train mode
bn2 = nn.BatchNorm1d(3)
with torch.no_grad():
    bn2.weight.copy_(torch.tensor([1.0, 2.0, 0.5]))
    bn2.bias.copy_(torch.tensor([0.0, -1.0, 1.0]))
xin = x.clone().requires_grad_()
out = bn2(xin)
(out * torch.arange(24.).view(2, 3, 4)).sum().backward()
print(out.grad_fn.name())
print(xin.grad[0], bn2.weight.grad, bn2.bias.grad)

print(F.batch_norm(x, None, None, training=True)[0, 0])
try:
    F.batch_norm(x, None, None, training=False)
except Exception as e:
    print(type(e).__name__, e)

gn = nn.GroupNorm(1, 3)
print(gn, gn(img)[0, :, 0])

# instance norm: per-sample, per-channel statistics
inorm = nn.InstanceNorm2d(3)
print(inorm, inorm(img)[1, 0])
inorm_a = nn.InstanceNorm2d(3, affine=True, track_running_stats=True)
print(inorm_a, [n for n, _ in inorm_a.named_buffers()])
inorm_a(img)
print(inorm_a.running_mean, inorm_a.running_var)
inorm_a.eval()
print(inorm_a(img)[0, 0])
print(nn.InstanceNorm1d(3)(x)[0])

# Dropout2d zeroes whole channels in training, is the identity in eval
d2 = nn.Dropout2d(p=0.3)
print(d2, nn.Dropout2d(), nn.Dropout1d(0.1))
d2.eval()
print(torch.equal(d2(img), img), d2.training)
d2.train()
out = nn.Dropout2d(p=1.0)(img)
print(out.abs().sum(), nn.Dropout2d(p=0.0)(img).equal(img))
