# timm SelectAdaptivePool2d / ClassifierHead: pool_type avg/max/avgmax/catavgmax built from
# F.adaptive_avg_pool2d / F.adaptive_max_pool2d, feat_mult, flatten, extra_repr, and
# reset_classifier(num_classes=0) swapping the fc for nn.Identity.
import torch
import torch.nn as nn
import torch.nn.functional as F


def adaptive_avgmax_pool2d(x, output_size=1):
    return 0.5 * (F.adaptive_avg_pool2d(x, output_size) + F.adaptive_max_pool2d(x, output_size))


def adaptive_catavgmax_pool2d(x, output_size=1):
    return torch.cat((F.adaptive_avg_pool2d(x, output_size), F.adaptive_max_pool2d(x, output_size)), 1)


class AdaptiveAvgMaxPool2d(nn.Module):
    def __init__(self, output_size=1):
        super().__init__()
        self.output_size = output_size

    def forward(self, x):
        return adaptive_avgmax_pool2d(x, self.output_size)


class AdaptiveCatAvgMaxPool2d(AdaptiveAvgMaxPool2d):
    def forward(self, x):
        return adaptive_catavgmax_pool2d(x, self.output_size)


class SelectAdaptivePool2d(nn.Module):
    def __init__(self, output_size=1, pool_type="avg", flatten=False):
        super().__init__()
        self.pool_type = pool_type or ""
        self.flatten = nn.Flatten(1) if flatten else nn.Identity()
        if pool_type == "":
            self.pool = nn.Identity()
        elif pool_type == "avg":
            self.pool = nn.AdaptiveAvgPool2d(output_size)
        elif pool_type == "max":
            self.pool = nn.AdaptiveMaxPool2d(output_size)
        elif pool_type == "avgmax":
            self.pool = AdaptiveAvgMaxPool2d(output_size)
        elif pool_type == "catavgmax":
            self.pool = AdaptiveCatAvgMaxPool2d(output_size)
        else:
            raise ValueError(f"Invalid pool type: {pool_type}")

    def is_identity(self):
        return not self.pool_type

    def feat_mult(self):
        return 2 if self.pool_type == "catavgmax" else 1

    def forward(self, x):
        return self.flatten(self.pool(x))

    def extra_repr(self):
        return f"pool_type={self.pool_type}, flatten={not isinstance(self.flatten, nn.Identity)}"


class ClassifierHead(nn.Module):
    def __init__(self, in_features, num_classes, pool_type="avg", drop_rate=0.0):
        super().__init__()
        self.in_features = in_features
        self.global_pool = SelectAdaptivePool2d(pool_type=pool_type, flatten=True)
        self.drop = nn.Dropout(drop_rate)
        n = in_features * self.global_pool.feat_mult()
        self.fc = nn.Linear(n, num_classes) if num_classes > 0 else nn.Identity()

    def reset(self, num_classes, pool_type=None):
        if pool_type is not None:
            self.global_pool = SelectAdaptivePool2d(pool_type=pool_type, flatten=True)
        n = self.in_features * self.global_pool.feat_mult()
        self.fc = nn.Linear(n, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x, pre_logits=False):
        x = self.drop(self.global_pool(x))
        return x if pre_logits else self.fc(x)


x = torch.cos(torch.arange(2 * 4 * 5 * 5, dtype=torch.float32) * 0.3).reshape(2, 4, 5, 5)
x.requires_grad_(True)
for pt in ["avg", "max", "avgmax", "catavgmax", ""]:
    pool = SelectAdaptivePool2d(pool_type=pt, flatten=pt != "")
    y = pool(x)
    print(repr(pt), pool.is_identity(), pool.feat_mult(), tuple(y.shape), type(pool.pool).__name__)
    if pt:
        print("  ", y[0].detach().round(decimals=4))
        y.sum().backward()
        print("   grad nz", int((x.grad != 0).sum()), f"{x.grad.sum().item():.4f}")
        x.grad = None
print(SelectAdaptivePool2d(pool_type="catavgmax", flatten=True))
try:
    SelectAdaptivePool2d(pool_type="gem")
except ValueError as e:
    print(type(e).__name__, e)

head = ClassifierHead(4, 3, pool_type="catavgmax", drop_rate=0.2)
with torch.no_grad():
    head.fc.weight.copy_(torch.linspace(-1, 1, 24).reshape(3, 8))
    head.fc.bias.fill_(0.1)
head.eval()
print(head)
print(head(x).detach(), head(x, pre_logits=True).shape)
head.reset(0, pool_type="max")
print(head.fc, head(x).shape)
print(F.adaptive_max_pool2d(x.detach(), (2, 3), return_indices=True)[1][0, 0])
print(F.adaptive_avg_pool2d(x.detach(), (3, 2))[1, 2])
