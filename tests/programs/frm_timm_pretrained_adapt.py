# timm-style pretrained loading: checkpoint_filter_fn renaming keys, adapt_input_conv
# (RGB stem -> 1 or 4 input channels), reset_classifier, strict=False with the returned
# missing/unexpected keys, and a ModelEmaV2 copy updated with lerp over state_dict values.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyNet(nn.Module):
    def __init__(self, in_chans=3, num_classes=5):
        super().__init__()
        self.conv_stem = nn.Conv2d(in_chans, 4, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(4)
        self.blocks = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.ReLU())
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(4, num_classes)

    def reset_classifier(self, num_classes):
        self.classifier = nn.Linear(4, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x):
        x = F.relu(self.bn1(self.conv_stem(x)))
        x = self.global_pool(self.blocks(x)).flatten(1)
        return self.classifier(x)


def adapt_input_conv(in_chans, conv_weight):
    conv_type = conv_weight.dtype
    conv_weight = conv_weight.float()
    O, I, J, K = conv_weight.shape
    if in_chans == 1:
        conv_weight = conv_weight.sum(dim=1, keepdim=True)
    elif in_chans != 3:
        repeat = -(-in_chans // 3)
        conv_weight = conv_weight.repeat(1, repeat, 1, 1)[:, :in_chans, :, :]
        conv_weight *= (3 / float(in_chans))
    return conv_weight.to(conv_type)


def checkpoint_filter_fn(state_dict, model):
    out = {}
    for k, v in state_dict.items():
        k = k.replace("stem.conv", "conv_stem").replace("head.fc", "classifier")
        if k == "conv_stem.weight" and v.shape[1] != model.conv_stem.in_channels:
            v = adapt_input_conv(model.conv_stem.in_channels, v)
        out[k] = v
    return out


src = TinyNet()
with torch.no_grad():
    for i, (name, t) in enumerate(src.state_dict().items()):
        if t.is_floating_point():
            t.copy_(torch.sin(torch.arange(t.numel(), dtype=torch.float32) + i).view_as(t) * 0.5)
pretrained = {k.replace("conv_stem", "stem.conv").replace("classifier", "head.fc"): v
              for k, v in src.state_dict().items()}
pretrained["head.fc.extra_scale"] = torch.ones(1)
print(list(pretrained)[:3], len(pretrained))

for in_chans in (3, 1, 4):
    model = TinyNet(in_chans=in_chans, num_classes=2)
    sd = checkpoint_filter_fn(pretrained, model)
    for k in ("classifier.weight", "classifier.bias"):
        if sd[k].shape != model.state_dict()[k].shape:
            del sd[k]
    res = model.load_state_dict(sd, strict=False)
    print(in_chans, res.missing_keys, res.unexpected_keys)
    print(model.conv_stem.weight[0, :, 0, 0])
    model.eval()
    x = torch.linspace(-1, 1, in_chans * 16).view(1, in_chans, 4, 4)
    print([round(v, 4) for v in model.global_pool(model.blocks(F.relu(model.bn1(model.conv_stem(x))))).flatten().tolist()])

model.reset_classifier(0)
print(model.classifier, model(torch.zeros(2, 4, 4, 4)).shape)


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_v.lerp_(model_v, 1.0 - self.decay)
            else:
                ema_v.copy_(model_v)


net = TinyNet(num_classes=2)
with torch.no_grad():
    for p in net.parameters():
        p.fill_(0.1)
ema = ModelEmaV2(net)
print([n for n, _ in ema.named_modules()][:3], ema.module.training)
with torch.no_grad():
    for p in net.parameters():
        p.fill_(1.1)
net.bn1.num_batches_tracked += 7
for _ in range(3):
    ema.update(net)
print(ema.module.classifier.bias, ema.module.bn1.num_batches_tracked)
print(ema.module.classifier.weight.requires_grad, ema.module.classifier.weight.grad)
