# REINFORCE as the PyTorch examples repo (reinforce.py) and many blog posts write it: a policy
# that stores saved_log_probs and rewards per episode, discounted returns built in a Python loop,
# normalised with (r - r.mean()) / (r.std() + eps), the policy loss as a torch.cat of terms.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

eps = np.finfo(np.float32).eps.item()
print(type(eps).__name__, eps)


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
policy.eval()  # no dropout noise, so the numbers are reproducible
with torch.no_grad():
    for i, p in enumerate(policy.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).view(p.shape) * 0.3)
optimizer = optim.Adam(policy.parameters(), lr=1e-2)


def select_action(state, action):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    policy.saved_log_probs.append(m.log_prob(torch.tensor(action)))
    return action


observations = np.stack([np.cos(np.arange(4) * 0.5 + t) for t in range(6)])
print(observations.dtype, observations.shape)
fixed_actions = [0, 1, 1, 0, 1, 0]
for t, (obs, a) in enumerate(zip(observations, fixed_actions)):
    select_action(obs, a)
    policy.rewards.append(1.0 if t < 5 else 0.0)
print(policy.saved_log_probs[0], policy.saved_log_probs[0].shape, policy.saved_log_probs[0].grad_fn.name())

gamma = 0.99
R = 0
policy_loss = []
returns = []
for r in policy.rewards[::-1]:
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
print(returns.dtype, returns)
returns = (returns - returns.mean()) / (returns.std() + eps)
print(returns, returns.std(unbiased=False), returns.std(correction=0))
for log_prob, R in zip(policy.saved_log_probs, returns):
    policy_loss.append(-log_prob * R)
optimizer.zero_grad()
policy_loss = torch.cat(policy_loss).sum()
print(policy_loss, policy_loss.grad_fn.name())
policy_loss.backward()
print(policy.affine2.bias.grad, policy.affine2.weight.grad.abs().sum())
optimizer.step()
print(policy.affine2.bias)
del policy.rewards[:]
del policy.saved_log_probs[:]
print(len(policy.rewards), len(policy.saved_log_probs))

# the variant with a stack of scalar log-probs and numpy-computed returns
log_probs = [Categorical(logits=torch.tensor([0.1 * k, -0.2, 0.3])).log_prob(torch.tensor(k % 3)) for k in range(4)]
stacked = torch.stack(log_probs)
print(stacked, stacked.shape, log_probs[0].shape)
np_returns = np.array([3.0, 2.0, 1.5, 1.0])
t_returns = torch.from_numpy(np_returns)
loss = -(stacked * t_returns).mean()
print(loss.dtype, loss)
loss32 = -(stacked * torch.tensor(np_returns, dtype=torch.float32)).sum()
print(loss32.dtype, loss32.item())
single = torch.tensor([5.0])
print(single.std(), (single - single.mean()) / (single.std() + eps))
running_reward = 10
for ep_reward in [20.0, 35.0, 50.0]:
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    print('Last reward: {:.2f}\tAverage reward: {:.2f}'.format(ep_reward, running_reward))

# the gymnasium migration slip: env.reset() now returns (obs, info), passed straight to torch
import warnings
reset_out = (np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32), {})
for make in (torch.tensor, torch.as_tensor, torch.FloatTensor, torch.Tensor, torch.from_numpy):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            make(reset_out)
        except (TypeError, ValueError, RuntimeError) as e:
            print(type(e).__name__, e)
    print(len(caught), "warning(s)")
state, info = reset_out
print(torch.from_numpy(state).float().unsqueeze(0).shape, info)
try:
    torch.Tensor(np.float32(2.0))
except TypeError as e:
    print("TypeError", e)
