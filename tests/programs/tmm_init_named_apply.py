# timm weight init: named_apply recursing with dotted names (depth_first, include_root),
# init_weights_vit_jax-style rules by name (head -> zeros_, mlp -> xavier_uniform_ + normal_ bias),
# lecun_normal_ via variance_scaling_ on _calculate_fan_in_and_fan_out, trunc_normal_ bounds.
import math
import torch
import torch.nn as nn


def named_apply(fn, module, name="", depth_first=True, include_root=False):
    if not depth_first and include_root:
        fn(module=module, name=name)
    for child_name, child_module in module.named_children():
        child_name = ".".join((name, child_name)) if name else child_name
        named_apply(fn=fn, module=child_module, name=child_name, depth_first=depth_first, include_root=True)
    if depth_first and include_root:
        fn(module=module, name=name)
    return module


def variance_scaling_(tensor, scale=1.0, mode="fan_in", distribution="normal"):
    fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(tensor)
    denom = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[mode]
    variance = scale / denom
    if distribution == "truncated_normal":
        nn.init.trunc_normal_(tensor, std=math.sqrt(variance) / .87962566103423978)
    elif distribution == "normal":
        with torch.no_grad():
            tensor.normal_(std=math.sqrt(variance))
    else:
        bound = math.sqrt(3 * variance)
        with torch.no_grad():
            tensor.uniform_(-bound, bound)
    return math.sqrt(variance)


visited = []


def init_weights_vit_jax(module, name=""):
    visited.append((name, type(module).__name__))
    if isinstance(module, nn.Linear):
        if name.startswith("head"):
            nn.init.zeros_(module.weight)
            nn.init.constant_(module.bias, 0.25)
        else:
            nn.init.xavier_uniform_(module.weight)
            if module.bias is not None:
                nn.init.normal_(module.bias, std=1e-6) if "mlp" in name else nn.init.zeros_(module.bias)
    elif isinstance(module, nn.Conv2d):
        std = variance_scaling_(module.weight, mode="fan_in", distribution="truncated_normal")
        print("lecun std", round(std, 6), "bound ok", bool(module.weight.abs().max() <= 2 * std / .87962566103423978))
        if module.bias is not None:
            nn.init.zeros_(module.bias)
    elif isinstance(module, nn.LayerNorm):
        nn.init.ones_(module.weight)
        nn.init.zeros_(module.bias)


class Mlp(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, 2 * d)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(2 * d, d)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, 8, 4, 4)
        self.blocks = nn.Sequential(*[nn.ModuleDict({"norm": nn.LayerNorm(8), "mlp": Mlp(8)}) for _ in range(2)])
        self.head = nn.Linear(8, 3)


net = Net()
named_apply(init_weights_vit_jax, net)
print(visited)
visited.clear()
named_apply(lambda module, name: visited.append(name), net.blocks[0], name="blocks.0", depth_first=False, include_root=True)
print(visited)

for name, p in net.named_parameters():
    print(f"{name:22s} {tuple(p.shape)!s:14s} zeros={bool((p == 0).all())} ones={bool((p == 1).all())}")
print(net.head.bias)
print(float(net.blocks[1].mlp.fc1.bias.abs().max()) < 1e-4)
bound = math.sqrt(6.0 / (8 + 16))
print(round(bound, 6), bool(net.blocks[0].mlp.fc1.weight.abs().max() <= bound))

for shape in [(8, 3, 4, 4), (16, 8), (5,), (4, 2, 3)]:
    t = torch.empty(shape)
    try:
        print(shape, nn.init._calculate_fan_in_and_fan_out(t))
    except ValueError as e:
        print(shape, type(e).__name__, e)

w = torch.empty(400, 50)
nn.init.trunc_normal_(w, mean=0.5, std=1.0, a=-0.5, b=1.0)
print(bool(w.min() >= -0.5), bool(w.max() <= 1.0), w.dtype, w.requires_grad)
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, round(nn.init.calculate_gain(nl), 6))
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 6))
n = nn.init.kaiming_normal_(torch.empty(6, 4), mode="fan_out", nonlinearity="relu")
print(n.shape)
