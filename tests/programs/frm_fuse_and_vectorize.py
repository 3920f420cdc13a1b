# Deployment helpers: fuse_conv_bn_eval / fuse_linear_bn_eval for inference, flattening
# parameters with parameters_to_vector / vector_to_parameters (e.g. for line search or
# evolution strategies), and freezing with requires_grad_(False).
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval, fuse_conv_bn_weights

conv = nn.Conv2d(2, 3, 3, padding=1)
bn = nn.BatchNorm2d(3)
with torch.no_grad():
    conv.weight.copy_(torch.sin(torch.arange(54.)).view(3, 2, 3, 3) * 0.5)
    conv.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
    bn.weight.copy_(torch.tensor([1.5, 0.5, 1.0]))
    bn.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
    bn.running_mean.copy_(torch.tensor([0.2, -0.1, 0.05]))
    bn.running_var.copy_(torch.tensor([0.9, 1.2, 0.4]))
conv.eval(); bn.eval()
fused = fuse_conv_bn_eval(conv, bn)
print(fused)
print(type(fused.weight).__name__, fused.weight.requires_grad, fused.training)
x = torch.cos(torch.arange(32.)).view(1, 2, 4, 4)
ref = bn(conv(x))
got = fused(x)
print(torch.allclose(ref, got, atol=1e-5), f"{(ref - got).abs().max().item():.1e}" if False else "")
print(fused.bias)

try:
    fuse_conv_bn_eval(conv.train(), bn)
except AssertionError as e:
    print(type(e).__name__, e)
conv.eval()

nobias = nn.Conv2d(2, 3, 1, bias=False).eval()
f2 = fuse_conv_bn_eval(nobias, bn)
print(f2.bias is not None, f2.bias.shape)

w, b = fuse_conv_bn_weights(conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
print(type(w).__name__, w.shape, b.shape)

lin = nn.Linear(4, 3).eval()
bn1 = nn.BatchNorm1d(3).eval()
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.).view(3, 4) / 12)
    lin.bias.fill_(0.25)
    bn1.running_mean.copy_(torch.tensor([1.0, 2.0, 3.0]))
fl = fuse_linear_bn_eval(lin, bn1)
print(fl)
print(fl.weight)
print(fl(torch.ones(2, 4)))

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
vec = parameters_to_vector(net.parameters())
print(vec.shape, vec.requires_grad, vec.grad_fn.name() if vec.grad_fn else None)
new = torch.linspace(-1, 1, vec.numel())
vector_to_parameters(new, net.parameters())
print(net[2].bias, net[0].weight[0])
print(torch.equal(parameters_to_vector(net.parameters()), new))
try:
    vector_to_parameters([1, 2], net.parameters())
except TypeError as e:
    print(type(e).__name__, e)

net[0].requires_grad_(False)
print([(n, p.requires_grad) for n, p in net.named_parameters()])
out = net(torch.ones(1, 3)).sum()
out.backward()
print(net[0].weight.grad, net[2].weight.grad)
g = parameters_to_vector(p.grad for p in net.parameters() if p.grad is not None)
print(g)

from torch.nn.utils import convert_conv2d_weight_memory_format
cnn = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4), nn.ConvTranspose2d(4, 2, 2), nn.Flatten(), nn.Linear(2, 1))
w_before = cnn[0].weight
same = convert_conv2d_weight_memory_format(cnn, torch.channels_last)
print(same is cnn, cnn[0].weight is w_before, cnn[0].weight.stride(), cnn[2].weight.stride())
print(cnn[0].weight.is_contiguous(memory_format=torch.channels_last), cnn[0].weight.is_contiguous())
