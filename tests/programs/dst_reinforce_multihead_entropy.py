# REINFORCE with a factored action space (Categorical move + Bernoulli fire + Normal aim), joint
# log-prob summed over heads, entropy bonus with a decaying coefficient, normalized returns-to-go.
import torch
import torch.nn as nn
from torch.distributions import Categorical, Bernoulli, Normal

torch.set_printoptions(precision=4)
T, obs_dim = 10, 5


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, 16), nn.ELU())
        self.move = nn.Linear(16, 4)
        self.fire = nn.Linear(16, 1)
        self.aim = nn.Linear(16, 1)
        self.aim_log_std = nn.Parameter(torch.tensor([-0.5]))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.35 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 2 * i).reshape(p.shape))

    def forward(self, obs):
        h = self.trunk(obs)
        return (Categorical(logits=self.move(h)), Bernoulli(logits=self.fire(h).squeeze(-1)),
                Normal(self.aim(h).squeeze(-1), self.aim_log_std.exp().expand(obs.shape[0])))


policy = Policy()
opt = torch.optim.RMSprop(policy.parameters(), lr=1e-3)
obs = torch.stack([torch.sin(torch.arange(obs_dim) * 0.3 * (t + 1)) for t in range(T)])
moves = torch.tensor([0, 1, 3, 2, 2, 1, 0, 3, 1, 2])
fires = torch.tensor([1., 0., 0., 1., 1., 0., 1., 0., 0., 1.])
aims = torch.linspace(-0.8, 0.8, T)
rewards = torch.tensor([0.0, 1.0, -0.5, 0.2, 1.0, 0.0, -1.0, 0.5, 0.3, 2.0])

returns, G = [], 0.0
for r in reversed(rewards.tolist()):
    G = r + 0.9 * G
    returns.insert(0, G)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-9)
print("returns", returns)

for it in range(15):
    mv, fi, am = policy(obs)
    logp = mv.log_prob(moves) + fi.log_prob(fires) + am.log_prob(aims)
    ent = mv.entropy() + fi.entropy() + am.entropy()
    coef = 0.05 * (0.9 ** it)
    loss = -(logp * returns).sum() - coef * ent.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(f"{it:2d} loss {loss.item():.4f} logp {logp.sum().item():.4f} ent {ent.mean().item():.4f} "
              f"H(move) {mv.entropy().mean().item():.4f} p(fire) {fi.probs.mean().item():.4f} std {am.stddev[0].item():.4f}")

mv, fi, am = policy(obs[:3])
print(mv.probs, mv.logits, sep="\n")
print(fi.probs, fi.logits)
print(mv.log_prob(torch.arange(4).unsqueeze(-1)).shape, mv.log_prob(torch.arange(4).unsqueeze(-1)).exp().sum(0).round(decimals=4))  # (sums to 1 within float noise)
print(mv.perplexity(), mv.mode, fi.mode, am.mode)
print(policy.aim_log_std.grad, policy.fire.bias.grad)
