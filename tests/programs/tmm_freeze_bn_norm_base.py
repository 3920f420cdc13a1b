# Freezing BatchNorm layers the mmcv/timm way: isinstance(m, nn.modules.batchnorm._BatchNorm)
# picks BN (1d/2d/SyncBN) but not InstanceNorm/GroupNorm, which must keep training.
import torch
import torch.nn as nn

net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.InstanceNorm2d(4, affine=True, track_running_stats=True),
                    nn.GroupNorm(2, 4), nn.Flatten())
frozen = []
for name, m in net.named_modules():
    if isinstance(m, nn.modules.batchnorm._BatchNorm):
        m.eval()
        for p in m.parameters():
            p.requires_grad_(False)
        frozen.append(name)
print(frozen)
print([n for n, p in net.named_parameters() if p.requires_grad])
