# BatchNorm2d details users run into: the functional F.batch_norm updating running stats in place,
# folding a trained BN into the preceding conv for inference, freezing BN inside a training model,
# input gradients through train-mode BN, F.group_norm / F.instance_norm / F.layer_norm on images,
# and the classic "Expected more than 1 value per channel" error.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.sin(torch.arange(2 * 3 * 3 * 3, dtype=torch.float32) * 0.7).view(2, 3, 3, 3) * 2 + 1
rm, rv = torch.zeros(3), torch.ones(3)
y = F.batch_norm(x, rm, rv, training=True, momentum=0.5)
print(y[0, :, 0, 0], rm, rv)
y2 = F.batch_norm(x, rm, rv, weight=torch.tensor([1., 2., 3.]), bias=torch.tensor([0., -1., 1.]))
print(y2[1, :, 2, 2], rm)
print(F.batch_norm(x, None, None, training=True).mean(dim=(0, 2, 3)).abs().max() < 1e-6)

# conv + bn folding
conv = nn.Conv2d(3, 4, 3, padding=1)
bn = nn.BatchNorm2d(4)
with torch.no_grad():
    conv.weight.copy_(torch.cos(torch.arange(conv.weight.numel(), dtype=torch.float32)).view_as(conv.weight) * 0.2)
    conv.bias.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
    bn.weight.copy_(torch.tensor([1.0, 0.5, 2.0, 1.5]))
    bn.bias.copy_(torch.tensor([0.0, 0.1, -0.1, 0.2]))
model = nn.Sequential(conv, bn)
model.train()
for _ in range(3):
    model(x)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
model.eval()
ref = model(x)
scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
fused = nn.Conv2d(3, 4, 3, padding=1)
with torch.no_grad():
    fused.weight.copy_(conv.weight * scale.view(-1, 1, 1, 1))
    fused.bias.copy_((conv.bias - bn.running_mean) * scale + bn.bias)
print(torch.allclose(fused(x), ref, atol=1e-5), ref[0, :, 1, 1])

# freezing BN statistics while the rest trains
net = nn.Sequential(nn.Conv2d(3, 3, 1), nn.BatchNorm2d(3), nn.ReLU())
net.train()
for m in net.modules():
    if isinstance(m, nn.BatchNorm2d):
        m.eval()
        m.weight.requires_grad_(False)
        m.bias.requires_grad_(False)
before = net[1].running_mean.clone()
net(x)
print(net.training, net[1].training, torch.equal(before, net[1].running_mean), net[1].num_batches_tracked)
print([n for n, p in net.named_parameters() if p.requires_grad])

# input gradient through train-mode BN: sums to zero per channel
xi = x.clone().requires_grad_()
bn2 = nn.BatchNorm2d(3)
out = bn2(xi)
(out * torch.arange(54.).view(2, 3, 3, 3)).sum().backward()
print(out.grad_fn.name(), xi.grad.sum(dim=(0, 2, 3)).abs().max() < 1e-3)
print(xi.grad[0, 0], bn2.weight.grad, bn2.bias.grad)

# functional group / instance / layer norm
print(F.group_norm(x, 3)[0, :, 0, 0], F.group_norm(x, 1)[0, :, 0, 0])
print(F.instance_norm(x)[1, 2, 0], F.layer_norm(x, x.shape[1:])[1, 2, 0])
print(torch.allclose(F.group_norm(x, 3), F.instance_norm(x), atol=1e-6))
print(torch.allclose(F.group_norm(x, 1), F.layer_norm(x, x.shape[1:]), atol=1e-6))

for fn in [lambda: nn.BatchNorm2d(3)(x[:1, :, :1, :1]),
           lambda: nn.BatchNorm2d(3)(x[0]),
           lambda: nn.BatchNorm2d(4)(x),
           lambda: nn.GroupNorm(2, 3),
           lambda: F.group_norm(x, 2),
           lambda: nn.InstanceNorm2d(3)(torch.ones(1, 3, 1, 1))]:
    try:
        r = fn()
        print(type(r).__name__, getattr(r, "shape", r))
    except Exception as e:
        print(type(e).__name__, e)

# the built-in helpers for the same folding
fused2 = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
print(type(fused2).__name__, torch.allclose(fused2(x), ref, atol=1e-5), torch.allclose(fused2.bias, fused.bias, atol=1e-6))
w_f, b_f = torch.nn.utils.fusion.fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
print(type(w_f).__name__, b_f)
