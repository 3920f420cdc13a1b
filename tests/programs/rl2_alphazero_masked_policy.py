# AlphaZero / MuZero training target: illegal-move masking with masked_fill(-inf) before
# log_softmax, MCTS visit counts turned into a policy with a temperature (pow(1/T), T -> 0 one-hot),
# loss = -(pi * log p).sum(1).mean() + mse(v, z) with weight decay via the optimizer, and the
# value head's tanh; zero-probability illegal moves must not produce NaN gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PolicyValueNet(nn.Module):
    def __init__(self, board=9):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(board, 16), nn.ReLU())
        self.policy = nn.Linear(16, board)
        self.value = nn.Linear(16, 1)

    def forward(self, x, legal):
        h = self.trunk(x)
        logits = self.policy(h).masked_fill(~legal, float("-inf"))
        return F.log_softmax(logits, dim=1), torch.tanh(self.value(h)).squeeze(1)


net = PolicyValueNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.45 + i).view_as(p) * 0.3)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)

boards = torch.tensor([[1, 0, -1, 0, 1, 0, 0, 0, -1], [0, 0, 0, 0, 1, 0, 0, 0, 0],
                       [1, -1, 1, -1, 1, -1, 0, 0, 0]], dtype=torch.float32)
legal = boards == 0
visits = torch.tensor([[0, 5, 0, 12, 0, 3, 20, 1, 0], [2, 1, 2, 1, 0, 1, 2, 1, 30],
                       [0, 0, 0, 0, 0, 0, 4, 4, 2]], dtype=torch.float32)
z = torch.tensor([1.0, -1.0, 0.0])
print(legal.sum(1), (visits * ~legal).sum())

for temp in [1.0, 0.5, 0.0]:
    if temp == 0:
        pi = F.one_hot(visits.argmax(1), 9).float()
    else:
        scaled = visits.pow(1.0 / temp)
        pi = scaled / scaled.sum(1, keepdim=True)
    print(temp, pi.round(decimals=3)[0])

pi = visits / visits.sum(1, keepdim=True)
for step in range(5):
    log_p, v = net(boards, legal)
    policy_loss = -(pi * log_p.masked_fill(~legal, 0.0)).sum(1).mean()
    value_loss = F.mse_loss(v, z)
    loss = policy_loss + value_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{policy_loss.item():.4f} {value_loss.item():.4f}",
          torch.isfinite(net.policy.weight.grad).all().item(), log_p.exp().sum(1).round(decimals=4).tolist())

log_p, v = net(boards, legal)
print(log_p[0].round(decimals=3))
print(torch.isinf(log_p).sum(1), log_p.exp()[~legal].abs().max(), v.round(decimals=4))
naive = -(pi * log_p).sum(1)
print(naive, torch.nan_to_num(pi * log_p, nan=0.0).sum(1).round(decimals=4))
print(F.kl_div(log_p.masked_fill(~legal, 0.0), pi, reduction="batchmean").round(decimals=4))
print(torch.xlogy(pi, pi).sum(1).round(decimals=4), torch.special.entr(pi).sum(1).round(decimals=4))
best = log_p.argmax(1)
print(best, legal.gather(1, best[:, None]).squeeze(1), torch.multinomial(pi, 1, generator=None).shape)
