# REINFORCE with torch.distributions: Categorical log_prob, normalised returns, policy loss.
import torch
import torch.nn as nn
from torch.distributions import Categorical, Normal

policy = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.7 + i).view(p.shape) * 0.5)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = torch.cos(torch.arange(20, dtype=torch.float32)).view(5, 4)
actions = torch.tensor([0, 1, 1, 0, 1])
rewards = [1.0, 0.0, 1.0, 1.0, 0.0]
gamma = 0.99

R, returns = 0, []
for r in rewards[::-1]:
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
print(returns)

dist = Categorical(logits=policy(states))
log_probs = dist.log_prob(actions)
print(log_probs, dist.entropy().mean())
policy_loss = -(log_probs * returns).sum()
optimizer.zero_grad()
policy_loss.backward()
optimizer.step()
print(f"{policy_loss.item():.4f}")
normal = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(normal.log_prob(torch.tensor([0.5, 0.5])), normal.entropy(), normal.mean, normal.stddev)
print(Categorical(probs=torch.tensor([0.2, 0.8])).probs, normal.sample().shape, dist.sample().shape)
