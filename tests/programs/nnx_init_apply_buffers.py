# Deterministic initialisation with model.apply(init_fn) and nn.init (constant_, zeros_, ones_, eye_,
# dirac_), what the init functions return, buffers registered with persistent=False (kept out of
# state_dict but moved/listed with the module), named_modules/named_children/named_buffers, and
# load_state_dict(strict=...) reports.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(c), persistent=False)

    def forward(self, x):
        self.cache = x.mean(dim=(0, 2, 3))
        return torch.relu(self.bn(self.conv(x))) * self.scale + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 2, 1)
        self.blocks = nn.Sequential(Block(2), Block(2))
        self.head = nn.Linear(2, 2)
        self.register_buffer("step", torch.tensor(0), persistent=False)
        self.register_buffer("nothing", None)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def init_fn(m):
    if isinstance(m, nn.Conv2d):
        if m.in_channels == m.out_channels:
            nn.init.dirac_(m.weight)
        else:
            nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.Linear):
        nn.init.eye_(m.weight)
        nn.init.ones_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.constant_(m.weight, 2.0)
        nn.init.constant_(m.bias, -0.25)


net = Net()
visited = []
print(net.apply(lambda m: visited.append(type(m).__name__)) is net, visited)
net.apply(init_fn)
print(net.blocks[0].conv.weight[:, :, 1, 1], net.head.weight, net.blocks[1].bn.bias)
x = torch.linspace(-1, 1, 2 * 1 * 3 * 3).view(2, 1, 3, 3)
print(net(x))
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print([(n, tuple(b.shape)) for n, b in net.named_buffers()])
print(list(net.state_dict().keys()))
print([n for n, _ in net.blocks[0].named_buffers(prefix="b0")], [n for n, _ in net.named_buffers(recurse=False)])
print(net.blocks[0].cache.shape, net.blocks[0].cache.grad_fn.name(), "cache" in net.blocks[0].state_dict())

# what the init functions return and what they accept
w = torch.empty(3, 4)
print(nn.init.eye_(w) is w, w)
print(nn.init.constant_(torch.empty(2), 3).dtype, nn.init.zeros_(torch.empty(2, dtype=torch.float64)))
t = nn.init.dirac_(torch.empty(2, 2, 3))
print(t)
print(nn.init.dirac_(torch.empty(4, 2, 1, 1), groups=2).view(4, 2))
for bad in [lambda: nn.init.eye_(torch.empty(2, 2, 2)), lambda: nn.init.dirac_(torch.empty(3, 3))]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)

# loading into a freshly built model: non-persistent buffers are not expected
fresh = Net()
print(fresh.load_state_dict(net.state_dict()))
print(torch.equal(fresh.head.weight, net.head.weight))
sd = net.state_dict()
sd.pop("head.bias")
sd["extra.weight"] = torch.ones(1)
result = fresh.load_state_dict(sd, strict=False)
print(result.missing_keys, result.unexpected_keys)
try:
    fresh.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError", e)

# shared submodules, buffer bookkeeping and naming errors
shared = nn.Linear(2, 2)
tied = nn.Sequential(shared, nn.ReLU(), shared)
print([n for n, _ in tied.named_modules()], [n for n, _ in tied.named_modules(remove_duplicate=False)])
print([n for n, _ in tied.named_parameters()], list(tied.state_dict().keys()))
blk = Block(2)
for bad in [lambda: blk.register_buffer("x.y", torch.ones(1)), lambda: blk.register_buffer("conv", torch.ones(1)),
            lambda: blk.register_buffer("c", [1, 2]), lambda: blk.register_buffer("", torch.ones(1)),
            lambda: blk.add_module("conv.x", nn.ReLU()), lambda: blk.get_submodule("nope")]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
blk.scale = None
print([n for n, _ in blk.named_buffers(recurse=False)], list(blk.state_dict(prefix="m.").keys())[:3])
