# Inference-time surgery: walk a model, fuse every Conv2d+BatchNorm2d and Linear+BatchNorm1d pair
# with fuse_conv_bn_eval / fuse_linear_bn_eval, replace the BN with Identity, and check that outputs
# of the fused model match the eval-mode original; then inspect the fused weights and errors.
import copy
import torch
import torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval, fuse_conv_bn_weights


def det_init(model):
    with torch.no_grad():
        for i, (name, t) in enumerate(model.state_dict().items()):
            if t.dtype != torch.float32:
                continue
            vals = torch.sin(torch.arange(t.numel(), dtype=torch.float32) * 0.9 + i).view_as(t)
            if name.endswith("running_var"):
                vals = vals.abs() + 0.5
            t.copy_(vals * 0.5)


model = nn.Sequential(
    nn.Conv2d(2, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(),
    nn.Conv2d(4, 4, 3, groups=2, padding=1), nn.BatchNorm2d(4, affine=False), nn.ReLU(),
    nn.Flatten(), nn.Linear(4 * 9, 6), nn.BatchNorm1d(6), nn.Tanh(), nn.Linear(6, 2),
)
det_init(model)
model.eval()
x = torch.cos(torch.arange(2 * 2 * 9, dtype=torch.float32) * 0.3).reshape(2, 2, 3, 3)
ref = model(x)


def fuse_all(seq):
    fused = copy.deepcopy(seq)
    names = list(fused._modules.keys())
    count = 0
    for a, b in zip(names, names[1:]):
        m1, m2 = fused._modules[a], fused._modules[b]
        if isinstance(m1, nn.Conv2d) and isinstance(m2, nn.BatchNorm2d):
            fused._modules[a] = fuse_conv_bn_eval(m1, m2)
        elif isinstance(m1, nn.Linear) and isinstance(m2, nn.BatchNorm1d):
            fused._modules[a] = fuse_linear_bn_eval(m1, m2)
        else:
            continue
        fused._modules[b] = nn.Identity()
        count += 1
    return fused, count


fused, n = fuse_all(model)
out = fused(x)
print("fused pairs:", n)
print(fused)
print(ref)
print(out)
print("max diff below 1e-5:", (out - ref).abs().max().item() < 1e-5)
print(fused[0].bias is not None, fused[0].bias.requires_grad, fused[0].weight.requires_grad)
print(fused[0].bias)
print(fused[7].bias)
print(type(fused[3].weight).__name__, fused[3].weight.shape, fused[3].groups)
print(sorted(k for k in fused.state_dict() if k.startswith(("0.", "1.", "7.", "8."))))
print(model[0].bias is None, model[1].training)

w, b = fuse_conv_bn_weights(model[0].weight, None, model[1].running_mean, model[1].running_var,
                            model[1].eps, model[1].weight, model[1].bias)
print(type(w).__name__, type(b).__name__, torch.allclose(w, fused[0].weight))

model.train()
try:
    fuse_conv_bn_eval(model[0], model[1])
except AssertionError as e:
    print("AssertionError", e)
try:
    fuse_linear_bn_eval(nn.Linear(3, 5).eval(), nn.BatchNorm1d(4).eval())
except AssertionError as e:
    print("AssertionError", e)

ct = nn.ConvTranspose2d(2, 3, 2).eval()
bn = nn.BatchNorm2d(3).eval()
det_init(ct)
det_init(bn)
f = fuse_conv_bn_eval(ct, bn, transpose=True)
z = torch.arange(8.0).reshape(1, 2, 2, 2) / 8
print(torch.allclose(f(z), bn(ct(z)), atol=1e-6), f.weight.shape)
