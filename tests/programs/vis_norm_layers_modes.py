# Normalisation layers in CNNs, train vs eval: BatchNorm2d running stats over several batches,
# model.eval() switching behaviour, requires_grad_(False) freezing, SyncBN-free FrozenBatchNorm
# written by hand, GroupNorm/InstanceNorm2d (with and without running stats), LayerNorm over
# (C, H, W), the num_batches_tracked buffer, load_state_dict of older checkpoints, and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
x = torch.stack([torch.sin(torch.arange(3 * 4 * 4, dtype=torch.float32) * (0.3 + 0.1 * i)).view(3, 4, 4) * (i + 1) + i
                 for i in range(4)])
bn = nn.BatchNorm2d(3, momentum=0.2)
with torch.no_grad():
    bn.weight.copy_(torch.tensor([1.0, 0.5, 2.0]))
    bn.bias.copy_(torch.tensor([0.0, 0.1, -0.1]))
for k in range(3):
    out = bn(x[k:k + 2])
    print(k, bn.running_mean, bn.running_var, bn.num_batches_tracked)
print(out.mean(dim=(0, 2, 3)).abs().max() < 1e-6, out.var(dim=(0, 2, 3), unbiased=False))
bn.eval()
print(bn(x[:1])[0, :, 0, 0], bn.training)
bn.train()
bn.requires_grad_(False)
print(bn(x[:2]).sum().requires_grad, bn.num_batches_tracked)

# cumulative moving average
cma = nn.BatchNorm2d(3, momentum=None)
for k in range(3):
    cma(x[k:k + 2])
print(cma.running_mean, cma.num_batches_tracked)


class FrozenBatchNorm2d(nn.Module):
    def __init__(self, n):
        super().__init__()
        for name, val in [("weight", torch.ones(n)), ("bias", torch.zeros(n)), ("running_mean", torch.zeros(n)), ("running_var", torch.ones(n))]:
            self.register_buffer(name, val)

    def forward(self, x):
        scale = self.weight * (self.running_var + 1e-5).rsqrt()
        bias = self.bias - self.running_mean * scale
        return x * scale.reshape(1, -1, 1, 1) + bias.reshape(1, -1, 1, 1)


fbn = FrozenBatchNorm2d(3)
sd = {k: v for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
print(fbn.load_state_dict(sd))
bn.eval()
print(torch.allclose(fbn(x), bn(x), atol=1e-6), list(bn.state_dict().keys()))

# old checkpoints without num_batches_tracked
bn2 = nn.BatchNorm2d(3)
print(bn2.load_state_dict(sd), bn2.num_batches_tracked)
print(bn2.load_state_dict(sd, strict=False))

gn = nn.GroupNorm(3, 3)
ln = nn.LayerNorm([3, 4, 4])
inn = nn.InstanceNorm2d(3)
inn_t = nn.InstanceNorm2d(3, track_running_stats=True, affine=True)
print(torch.allclose(gn(x), inn(x), atol=1e-5), torch.allclose(nn.GroupNorm(1, 3, affine=False)(x), ln(x), atol=1e-5))
y = inn_t(x)
print(inn_t.running_mean, inn_t.running_var)
inn_t.eval()
print(inn_t(x)[0, :, 0, 0])
print(inn(x[0])[:, 0], inn(x[0]).shape)
print(F.instance_norm(x, use_input_stats=True).std(dim=(2, 3), unbiased=False)[0])
print(gn.weight.shape, ln.weight.shape, list(inn_t.state_dict()), list(inn.state_dict()))

xg = x.clone().requires_grad_(True)
bn.train()
bn.requires_grad_(True)
(bn(xg) * torch.linspace(-1, 1, 48).view(1, 3, 4, 4)).pow(2).sum().backward()
print(xg.grad.abs().sum(dim=(0, 2, 3)), bn.weight.grad, bn.bias.grad)

for bad in [lambda: nn.BatchNorm2d(3)(torch.zeros(2, 4, 2, 2)),
            lambda: nn.BatchNorm2d(3)(torch.zeros(3, 2, 2)),
            lambda: nn.BatchNorm1d(3)(torch.zeros(2, 3, 2, 2)),
            lambda: nn.GroupNorm(2, 3),
            lambda: nn.GroupNorm(2, 4)(torch.zeros(2, 3, 2)),
            lambda: nn.InstanceNorm2d(3)(torch.zeros(2, 3)),
            lambda: nn.LayerNorm([4, 4])(torch.zeros(2, 3, 4, 5)),
            lambda: nn.BatchNorm2d(3)(torch.zeros(1, 3, 1, 1))]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
