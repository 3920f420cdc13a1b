# Structured pruning made physical: rank conv filters by L1 norm with prune.ln_structured, then
# rebuild a thinner Conv2d/BatchNorm2d/next-Conv2d chain by slicing weights, swap the new layers in
# with setattr, and verify the slimmer network computes the same function (and fewer params).
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 4, 3, padding=1)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.conv2(x))
        return self.head(x.mean((2, 3)))


net = Net()
with torch.no_grad():
    for i, (n, t) in enumerate(net.state_dict().items()):
        if t.is_floating_point():
            v = torch.sin(torch.arange(t.numel(), dtype=torch.float32) * 1.3 + i).view_as(t)
            t.copy_(v.abs() + 0.5 if "running_var" in n else v * 0.4)
net.eval()
x = torch.cos(torch.arange(2 * 25, dtype=torch.float32) * 0.7).view(2, 1, 5, 5)

prune.ln_structured(net.conv1, "weight", amount=0.5, n=1, dim=0)
keep = net.conv1.weight_mask.flatten(1).sum(1) > 0
print("kept filters:", keep.nonzero().flatten().tolist())
print("filter L1:", [round(v, 3) for v in net.conv1.weight_orig.abs().sum((1, 2, 3)).tolist()])

# pruned filters still emit bias -> BN -> relu; fold that constant into conv2 before dropping them
with torch.no_grad():
    masked_out = net(x)
prune.remove(net.conv1, "weight")
idx = keep.nonzero().flatten()
drop = (~keep).nonzero().flatten()


def slim_conv(conv, out_idx=None, in_idx=None):
    w = conv.weight.detach()
    b = conv.bias.detach() if conv.bias is not None else None
    if out_idx is not None:
        w, b = w[out_idx], (b[out_idx] if b is not None else None)
    if in_idx is not None:
        w = w[:, in_idx]
    new = nn.Conv2d(w.shape[1], w.shape[0], conv.kernel_size, conv.stride, conv.padding, bias=b is not None)
    with torch.no_grad():
        new.weight.copy_(w)
        if b is not None:
            new.bias.copy_(b)
    return new


def slim_bn(bn, idx):
    new = nn.BatchNorm2d(len(idx), eps=bn.eps, momentum=bn.momentum)
    for name in ["weight", "bias", "running_mean", "running_var"]:
        getattr(new, name).data.copy_(getattr(bn, name).data[idx])
    new.num_batches_tracked.copy_(bn.num_batches_tracked)
    return new.eval()


with torch.no_grad():
    const = torch.relu(net.bn1(net.conv1.bias.view(1, 6, 1, 1).expand(1, 6, 5, 5)))[0, :, 0, 0]
    print("constant from pruned channels:", [round(v, 4) for v in const[drop].tolist()])
params_before = sum(p.numel() for p in net.parameters())
new_conv2 = slim_conv(net.conv2, in_idx=idx)
setattr(net, "conv1", slim_conv(net.conv1, out_idx=idx))
setattr(net, "bn1", slim_bn(net.bn1, idx))
setattr(net, "conv2", new_conv2)
print(net)
params_after = sum(p.numel() for p in net.parameters())
print(params_before, "->", params_after)
with torch.no_grad():
    slim_out = net(x)
print(masked_out)
print(slim_out)
print("max |diff|:", f"{(slim_out - masked_out).abs().max().item():.3f}")
print([(k, tuple(v.shape)) for k, v in net.state_dict().items() if "num_batches" not in k])
