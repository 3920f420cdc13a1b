# pytorch/examples reinforcement_learning/actor_critic.py + reinforce.py idioms: SavedAction
# namedtuples, eps = np.finfo(np.float32).eps.item(), returns.std() normalization,
# F.smooth_l1_loss(value, torch.tensor([R])), torch.stack(policy_losses).sum() + ..., del buffers.
from collections import namedtuple
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

SavedAction = namedtuple("SavedAction", ["log_prob", "value"])
eps = np.finfo(np.float32).eps.item()
gamma = 0.99


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 12)
        self.action_head = nn.Linear(12, 2)
        self.value_head = nn.Linear(12, 1)
        self.saved_actions = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_prob = F.softmax(self.action_head(x), dim=-1)
        state_values = self.value_head(x)
        return action_prob, state_values


model = Policy()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.91 + 0.5 * i).view_as(p) * 0.3)
optimizer = optim.Adam(model.parameters(), lr=3e-2)
print(eps, type(eps).__name__)


def select_action(state, t):
    state = torch.from_numpy(state).float()
    probs, state_value = model(state)
    m = Categorical(probs)
    action = torch.tensor(t % 2) if probs[0] < 0.5 else torch.tensor(0)
    model.saved_actions.append(SavedAction(m.log_prob(action), state_value))
    return action.item()


def finish_episode():
    R = 0
    saved_actions = model.saved_actions
    policy_losses = []
    value_losses = []
    returns = []
    for r in model.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    out = (loss.item(), returns.dtype, len(policy_losses), policy_losses[0].shape, value_losses[0].grad_fn.name())
    del model.rewards[:]
    del model.saved_actions[:]
    return out


for i_episode in range(4):
    state = np.array([np.sin(i_episode), np.cos(i_episode), 0.1, -0.2])
    ep_reward = 0
    for t in range(1, 8):
        action = select_action(state, t)
        state = np.array([np.sin(i_episode + t * 0.3), np.cos(t * 0.7), 0.1 * action, -0.2 * t])
        reward = 1.0 if action == (t % 2) else 0.0
        model.rewards.append(reward)
        ep_reward += reward
    loss, dt, n, shape, gname = finish_episode()
    print(i_episode, f"{loss:.4f}", dt, n, shape, gname, ep_reward, len(model.rewards))

# reinforce.py variant: torch.cat of [1]-shaped losses, unbiased vs biased std
rewards = [1.0, 0.0, 1.0, 1.0, 0.0]
returns = []
R = 0
for r in rewards[::-1]:
    R = r + 0.9 * R
    returns.insert(0, R)
returns = torch.tensor(returns)
print(returns.std(), returns.std(unbiased=False), returns.std(correction=0), torch.std_mean(returns))
probs = F.softmax(torch.tensor([[0.1, 0.4], [0.2, -0.1], [0.0, 0.0], [1.0, 0.5], [-0.3, 0.3]], requires_grad=True), dim=1)
m = Categorical(probs)
acts = torch.tensor([1, 0, 1, 0, 1])
log_probs = [m.log_prob(acts)[i:i + 1] for i in range(5)]
policy_loss = [-lp * Rn for lp, Rn in zip(log_probs, (returns - returns.mean()) / (returns.std() + eps))]
policy_loss = torch.cat(policy_loss).sum()
policy_loss.backward()
print(f"{policy_loss.item():.5f}", policy_loss.grad_fn.name(), m.entropy().round(decimals=4))
print(torch.tensor([returns[0]]).dtype, torch.tensor([np.float64(1.5)]).dtype, torch.tensor([R]).dtype)
