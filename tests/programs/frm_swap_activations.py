# Model surgery: recursively swap every ReLU for GELU via named_children/setattr,
# replace Linear layers with a custom wrapper, freeze a backbone, print the module tree.
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=2):
        super().__init__()
        self.base = base
        self.r = r
        self.A = nn.Parameter(torch.zeros(r, base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()

    def extra_repr(self):
        return f"r={self.r}, in={self.base.in_features}, out={self.base.out_features}"


def swap_relu(module):
    for name, child in module.named_children():
        if isinstance(child, nn.ReLU):
            setattr(module, name, nn.GELU(approximate="tanh"))
        else:
            swap_relu(child)


def add_lora(module, prefix=""):
    for name, child in list(module.named_children()):
        full = f"{prefix}.{name}" if prefix else name
        if isinstance(child, nn.Linear) and "head" not in full:
            module.set_submodule(name, LoRALinear(child))
        else:
            add_lora(child, full)


net = nn.Sequential(
    nn.Sequential(nn.Linear(4, 8), nn.ReLU(inplace=True), nn.Linear(8, 8), nn.ReLU()),
    nn.ModuleDict({"act": nn.ReLU(), "proj": nn.Linear(8, 4)}),
)
net.add_module("head", nn.Linear(4, 2))
print(net)
swap_relu(net)
print(net)
print(sum(isinstance(m, nn.GELU) for m in net.modules()))

for p in net.parameters():
    p.requires_grad_(False)
add_lora(net)
print(net)
trainable = [n for n, p in net.named_parameters() if p.requires_grad]
frozen = [n for n, p in net.named_parameters() if not p.requires_grad]
print(trainable)
print(len(frozen), sum(p.numel() for p in net.parameters() if p.requires_grad))

with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p) * 0.3)

x = torch.linspace(-1, 1, 12).view(3, 4)
h = net[0](x)
h = net[1]["proj"](net[1]["act"](h))
out = net.head(h)
out.sum().backward()
print(out)
print([n for n, p in net.named_parameters() if p.grad is not None])
print(net[0][0].A.grad)
net.head.requires_grad_(True)
net.zero_grad(set_to_none=True)
print([n for n, p in net.named_parameters() if p.requires_grad])
print(net.get_submodule("0.0.base").weight.requires_grad)
del net[1]
print(net)
print(len(net), [type(m).__name__ for m in net])
