# Network slimming: rank conv channels by BatchNorm |gamma| (L1-sparsified during training),
# then physically rebuild a thinner Conv-BN-Conv with index_select and compare outputs/size.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)
net = nn.Sequential(nn.Conv2d(2, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(), nn.Conv2d(6, 3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).reshape(p.shape) * 0.5)
    net[1].weight.copy_(torch.tensor([0.9, 0.02, 0.5, -0.01, 0.7, 0.05]))

x = torch.cos(torch.arange(4 * 2 * 5 * 5, dtype=torch.float32) * 0.37).reshape(4, 2, 5, 5)
target = torch.sin(torch.arange(4 * 3 * 5 * 5, dtype=torch.float32) * 0.11).reshape(4, 3, 5, 5)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(10):
    loss = F.mse_loss(net(x), target)
    opt.zero_grad()
    loss.backward()
    net[1].weight.grad.add_(1e-2 * torch.sign(net[1].weight.data))  # L1 on gamma (subgradient)
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}")
print("running_mean", net[1].running_mean)
net.eval()

gamma = net[1].weight.detach().abs()
keep = torch.argsort(gamma, descending=True)[:3].sort().values
print("gamma", gamma, "keep", keep.tolist())

conv1, bn, conv2 = net[0], net[1], net[3]
slim = nn.Sequential(nn.Conv2d(2, len(keep), 3, padding=1), nn.BatchNorm2d(len(keep)), nn.ReLU(), nn.Conv2d(len(keep), 3, 1))
with torch.no_grad():
    slim[0].weight.copy_(conv1.weight.index_select(0, keep))
    slim[0].bias.copy_(conv1.bias[keep])
    for name in ["weight", "bias"]:
        getattr(slim[1], name).copy_(getattr(bn, name)[keep])
    slim[1].running_mean.copy_(bn.running_mean[keep])
    slim[1].running_var.copy_(bn.running_var[keep])
    slim[1].num_batches_tracked.copy_(bn.num_batches_tracked)
    slim[3].weight.copy_(conv2.weight[:, keep])
    slim[3].bias.copy_(conv2.bias)
slim.eval()

with torch.no_grad():
    full_out, slim_out = net(x), slim(x)
    # zero the dropped channels in the full net to get the exact reference
    masked = net[0:3](x)
    drop = torch.ones(6, dtype=torch.bool)
    drop[keep] = False
    masked[:, drop] = 0
    ref = net[3](masked)
print("slim == masked full:", torch.allclose(slim_out, ref, atol=1e-6))
print("relative change vs full:", f"{((slim_out - full_out).norm() / full_out.norm()).item():.4f}")
n_full = sum(p.numel() for p in net.parameters())
n_slim = sum(p.numel() for p in slim.parameters())
print(f"params {n_full} -> {n_slim} ({100 * (1 - n_slim / n_full):.1f}% fewer)")
print(slim)
print({k: tuple(v.shape) for k, v in slim.state_dict().items()})
