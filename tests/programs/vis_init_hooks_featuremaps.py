# Model-inspection habits from CNN tutorials: a weight-init loop over model.modules() with
# isinstance checks (constant/dirac/eye/zeros, BN gamma=1 beta=0), fan-in/fan-out and gain
# helpers, per-layer parameter tables, named_modules walks, feature maps captured with forward
# hooks into a dict (plus a pre-hook and a hook that edits the output), and hook removal.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(4, 4, 3, padding=1, groups=2, bias=False), nn.GroupNorm(2, 4), nn.SiLU(),
            nn.Conv2d(4, 6, 1), nn.AdaptiveAvgPool2d((2, 2)))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(24, 5))

    def forward(self, x):
        return self.classifier(self.features(x))


model = SmallCNN()
for name, m in model.named_modules():
    if isinstance(m, nn.Conv2d):
        if m.kernel_size == (1, 1):
            nn.init.constant_(m.weight, 0.1)
        elif m.groups > 1:
            nn.init.dirac_(m.weight, groups=m.groups)
        else:
            with torch.no_grad():
                m.weight.copy_(torch.cos(torch.arange(m.weight.numel(), dtype=torch.float32)).view_as(m.weight) * 0.2)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Linear):
        nn.init.eye_(m.weight[:, :5]) if False else nn.init.constant_(m.weight, 0.05)
        nn.init.constant_(m.bias, -0.1)
print(model.features[4].weight[:, :, 1, 1], model.features[4].weight.sum())
print(nn.init._calculate_fan_in_and_fan_out(model.features[0].weight), nn.init._calculate_fan_in_and_fan_out(model.features[4].weight))
for nl in ["relu", "leaky_relu", "tanh", "sigmoid", "selu", "conv2d"]:
    print(nl, round(nn.init.calculate_gain(nl), 4))
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 4))
w = torch.empty(3, 3)
print(nn.init.eye_(w), nn.init.dirac_(torch.empty(2, 2, 3)).sum(dim=0))

print(f"{'layer':<24}{'shape':<18}{'params':>8}")
for n, p in model.named_parameters():
    print(f"{n:<24}{str(list(p.shape)):<18}{p.numel():>8}")
print("total", sum(p.numel() for p in model.parameters()), "trainable", sum(p.numel() for p in model.parameters() if p.requires_grad))
print([n for n, _ in model.named_buffers()])

feats = {}


def save(name):
    def hook(mod, inp, out):
        feats[name] = out.detach()
    return hook


handles = [m.register_forward_hook(save(n)) for n, m in model.features.named_children() if isinstance(m, (nn.Conv2d, nn.MaxPool2d, nn.AdaptiveAvgPool2d))]
pre = model.classifier.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
clip = model.features[2].register_forward_hook(lambda mod, inp, out: out.clamp(max=0.5))

x = torch.linspace(-1, 1, 2 * 3 * 8 * 8).view(2, 3, 8, 8)
model.eval()
out = model(x)
for k, v in feats.items():
    print(k, tuple(v.shape), f"{v.mean().item():.4f}", f"{v.max().item():.4f}")
print(out)
for h in handles + [pre, clip]:
    h.remove()
feats.clear()
print(model(x), len(feats))

# activation statistics per ReLU-like layer, the "dead ReLU" check
acts = []
hs = [m.register_forward_hook(lambda m, i, o: acts.append((type(m).__name__, f"{(o == 0).float().mean().item():.3f}"))) for m in model.modules() if isinstance(m, (nn.ReLU, nn.SiLU))]
model.train()
model(x)
print(acts)
for h in hs:
    h.remove()
print(model.training, model.features[1].num_batches_tracked)
