# Growing a network after construction (progressive-growing / net2deeper style): insert
# identity-initialised blocks into a ModuleList, extend ParameterList / ModuleDict heads, and the
# surprises of ModuleList.insert with negative or past-the-end indices.
import torch
import torch.nn as nn


def identity_linear(dim):
    lin = nn.Linear(dim, dim)
    with torch.no_grad():
        lin.weight.copy_(torch.eye(dim))
        lin.bias.zero_()
    return lin


class Grower(nn.Module):
    def __init__(self, dim=3):
        super().__init__()
        self.dim = dim
        self.blocks = nn.ModuleList([nn.Linear(dim, dim), nn.Linear(dim, dim)])
        self.gains = nn.ParameterList([nn.Parameter(torch.ones(1)) for _ in self.blocks])
        self.heads = nn.ModuleDict({"main": nn.Linear(dim, 1)})

    def forward(self, x):
        for blk, g in zip(self.blocks, self.gains):
            x = torch.relu(blk(x)) * g
        return {k: h(x) for k, h in self.heads.items()}


net = Grower()
with torch.no_grad():
    for i, (n, p) in enumerate(net.named_parameters()):
        if not n.startswith("gains"):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p).abs() * 0.5 + 0.1)
x = torch.linspace(0, 1, 6).view(2, 3)
before = net(x)["main"]
print(before)

net.blocks.insert(1, identity_linear(3))
net.gains.append(nn.Parameter(torch.ones(1)))
print([type(b).__name__ for b in net.blocks], len(net.gains), list(net.blocks._modules.keys()))
print("function preserved:", torch.allclose(net(x)["main"], before))
print([n for n, _ in net.named_parameters() if n.startswith("blocks")])

net.blocks.insert(len(net.blocks), identity_linear(3))
net.gains.extend([nn.Parameter(torch.ones(1))])
print(len(net.blocks), torch.allclose(net(x)["main"], before))

aux = nn.Linear(3, 2)
with torch.no_grad():
    aux.weight.fill_(0.2)
    aux.bias.fill_(-0.1)
net.heads.update({"aux": aux})
net.heads["main2"] = net.heads["main"]
out = net(x)
print({k: tuple(v.shape) for k, v in out.items()}, len(list(net.heads.parameters())))

probe = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
try:
    probe.insert(-1, nn.GELU())
except KeyError as e:
    print("KeyError", e)
print(list(probe._modules.keys()), [type(m).__name__ for m in probe._modules.values()])

gap = nn.ModuleList([nn.ReLU()])
gap.insert(4, nn.Tanh())
print(list(gap._modules.keys()), len(gap))
print(gap)
try:
    gap[1]
except KeyError as e:
    print("KeyError", e)

opt = torch.optim.SGD(net.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    loss = sum(v.pow(2).mean() for v in net(x).values())
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(net.gains[2].grad, [round(g.item(), 4) for g in net.gains])
