# Two common post-construction tweaks: (1) "freeze BN" - keep the model in train mode but put every
# BatchNorm in eval with frozen affine params, reset_running_stats / cumulative momentum=None;
# (2) tie an embedding and output projection, and see how ties behave in parameters(),
# state_dict(), load_state_dict() and deepcopy, then untie by cloning.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.BatchNorm1d(4), nn.ReLU(),
                    nn.Conv1d(4, 4, 3, padding=1), nn.BatchNorm1d(4, momentum=None), nn.ReLU(),
                    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.6 + i).view_as(p) * 0.5)
x = torch.cos(torch.arange(2 * 2 * 8, dtype=torch.float32) * 0.4).view(2, 2, 8)

net.train()
for _ in range(3):
    net(x * 1.5)
print(net[1].running_mean, net[1].num_batches_tracked)
print(net[4].running_var, net[4].num_batches_tracked)


def freeze_bn(module):
    if isinstance(module, nn.modules.batchnorm._BatchNorm):
        module.eval()
        for p in module.parameters():
            p.requires_grad_(False)


net.train()
net.apply(freeze_bn)
print([m.training for m in net], net.training)
before = net[1].running_mean.clone()
opt = torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)
target = torch.tensor([0, 2])
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print(torch.equal(before, net[1].running_mean), net[1].weight.grad)

net[4].reset_running_stats()
print(net[4].running_mean, net[4].running_var, net[4].num_batches_tracked)
net[4].reset_parameters()
print(net[4].weight, net[4].bias)


class TinyLM(nn.Module):
    def __init__(self, vocab=6, dim=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.embed.weight

    def forward(self, ids):
        return self.lm_head(torch.tanh(self.mix(self.embed(ids))))


lm = TinyLM()
with torch.no_grad():
    lm.embed.weight.copy_(torch.arange(24, dtype=torch.float32).view(6, 4) / 24)
    lm.mix.weight.copy_(torch.eye(4) * 0.5)
    lm.mix.bias.zero_()
print([n for n, _ in lm.named_parameters()], len(list(lm.parameters())))
print(list(lm.state_dict().keys()))
ids = torch.tensor([[1, 2, 3]])
loss = F.cross_entropy(lm(ids).view(-1, 6), torch.tensor([2, 3, 4]))
loss.backward()
print(f"{loss.item():.4f}", lm.embed.weight.grad is lm.lm_head.weight.grad)
print(lm.embed.weight.grad[:, 0])

sd = {k: v.clone() for k, v in lm.state_dict().items()}
sd["lm_head.weight"] = torch.zeros(6, 4)
fresh = TinyLM()
fresh.load_state_dict(sd)
print(fresh.embed.weight.abs().sum().item(), fresh.lm_head.weight is fresh.embed.weight)

twin = copy.deepcopy(lm)
print(twin.lm_head.weight is twin.embed.weight, twin.embed.weight is lm.embed.weight)
twin.lm_head.weight = nn.Parameter(twin.embed.weight.detach().clone())
print(len(list(twin.parameters())), twin.lm_head.weight is twin.embed.weight)
with torch.no_grad():
    twin.lm_head.weight.mul_(2)
print(twin.embed.weight[1], twin.lm_head.weight[1])
