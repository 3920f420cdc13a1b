# Walking a model the way framework code does: named_modules / named_children /
# named_parameters / named_buffers with prefixes, remove_duplicate for shared and tied
# modules, non-persistent buffers, and apply(init_fn).
import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, dim):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv, persistent=False)
        self.register_buffer("step", torch.tensor(0))
        self.register_buffer("unused", None)

    def forward(self, x):
        return x


class TiedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.rot = Rotary(4)
        shared = nn.Linear(4, 4)
        self.blocks = nn.ModuleList([shared, nn.ReLU(), shared])
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, idx):
        h = self.rot(self.emb(idx))
        for b in self.blocks:
            h = b(h)
        return self.head(h)


m = TiedLM()
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print([n for n, _ in m.named_modules(prefix="model")])
print([n for n, _ in m.named_children()])
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print([n for n, _ in m.named_parameters(prefix="lm", recurse=False)])
print([n for n, _ in m.blocks.named_parameters(prefix="blocks")])
print([(n, b.dtype) for n, b in m.named_buffers()])
print([n for n, _ in m.named_buffers(prefix="x", remove_duplicate=False)])
print(list(m.state_dict().keys()))
print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())))
print(len(list(m.modules())), len(list(m.children())))

count = {"Linear": 0, "Embedding": 0}


@torch.no_grad()
def init_weights(mod):
    name = type(mod).__name__
    if isinstance(mod, nn.Linear):
        count["Linear"] += 1
        mod.weight.fill_(0.01 * count["Linear"])
        if mod.bias is not None:
            mod.bias.zero_()
    elif isinstance(mod, nn.Embedding):
        count["Embedding"] += 1
        mod.weight.copy_(torch.arange(40.).view(10, 4) / 40)


ret = m.apply(init_weights)
print(ret is m, count)
print(m.blocks[0].weight)
print(m.head.weight[:2])
out = m(torch.tensor([[1, 2, 3]]))
print(out.shape, f"{out.sum().item():.4f}")

order = []
m.apply(lambda mod: order.append(type(mod).__name__))
print(order)

print(m.get_buffer("rot.step"), m.rot.inv_freq)
m.rot.inv_freq = torch.ones(2)
print("inv_freq" in dict(m.rot.named_buffers()), m.rot._non_persistent_buffers_set)
try:
    m.rot.register_buffer("emb", torch.zeros(1), persistent=False)
    m.register_buffer("emb", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.register_buffer("a.b", torch.zeros(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.register_buffer("bad", [1, 2])
except TypeError as e:
    print(type(e).__name__, e)
del m.rot.step
print([n for n, _ in m.named_buffers()])
