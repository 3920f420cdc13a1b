# CleanRL ppo_continuous_action.py agent: a state-independent actor_logstd Parameter expanded
# to the batch, Normal(mean, std).log_prob(a).sum(1), entropy().sum(1), orthogonal-init-free
# deterministic weights, action clipping to the env bounds, observation normalisation with a
# running mean/var (RunningMeanStd) and reward scaling, and the gradient that reaches logstd.
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal


class RunningMeanStd:
    def __init__(self, epsilon=1e-4, shape=()):
        self.mean = np.zeros(shape, "float64")
        self.var = np.ones(shape, "float64")
        self.count = epsilon

    def update(self, x):
        batch_mean, batch_var, batch_count = np.mean(x, axis=0), np.var(x, axis=0), x.shape[0]
        delta = batch_mean - self.mean
        tot_count = self.count + batch_count
        self.mean = self.mean + delta * batch_count / tot_count
        m2 = self.var * self.count + batch_var * batch_count + np.square(delta) * self.count * batch_count / tot_count
        self.var = m2 / tot_count
        self.count = tot_count


class Agent(nn.Module):
    def __init__(self, obs_dim=3, act_dim=2):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 8), nn.Tanh(), nn.Linear(8, 1))
        self.actor_mean = nn.Sequential(nn.Linear(obs_dim, 8), nn.Tanh(), nn.Linear(8, act_dim))
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        action_mean = self.actor_mean(x)
        action_logstd = self.actor_logstd.expand_as(action_mean)
        action_std = torch.exp(action_logstd)
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)


agent = Agent()
with torch.no_grad():
    for i, (name, p) in enumerate(agent.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.45 + i).view(p.shape) * 0.3)
print([(n, tuple(p.shape)) for n, p in agent.named_parameters()])
print(agent.actor_logstd)

raw_obs = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -2.0], [-0.5, 1.0, 0.0], [0.0, 2.0, 1.0]])
rms = RunningMeanStd(shape=(3,))
rms.update(raw_obs)
norm_obs = np.clip((raw_obs - rms.mean) / np.sqrt(rms.var + 1e-8), -10, 10)
print(rms.mean, rms.var.round(4), round(rms.count, 4))
x = torch.Tensor(norm_obs)
print(x.dtype, x)
stored_actions = torch.tensor([[0.2, -0.1], [1.5, 0.3], [-0.4, -2.5], [0.0, 0.0]])
_, logprob, entropy, value = agent.get_action_and_value(x, stored_actions)
print(logprob, entropy, value.flatten(), sep="\n")
print(logprob.grad_fn.name(), entropy.grad_fn.name(), value.grad_fn.name())
loss = -(logprob * torch.tensor([1.0, -0.5, 0.25, 0.0])).mean() - 0.01 * entropy.mean()
loss.backward()
print(agent.actor_logstd.grad, agent.actor_mean[2].bias.grad)
low, high = np.array([-1.0, -1.0], dtype=np.float32), np.array([1.0, 1.0], dtype=np.float32)
clipped = np.clip(stored_actions.cpu().numpy(), low, high)
print(clipped, clipped.dtype)
print(stored_actions.clamp(torch.from_numpy(low), torch.from_numpy(high)), torch.clip(stored_actions, -1, 1))

# a state-dependent std through softplus, and the Normal's properties
mu = torch.tensor([[0.0, 1.0], [2.0, -1.0]], requires_grad=True)
pre_std = torch.tensor([[0.0, -1.0], [1.0, 3.0]], requires_grad=True)
std = nn.functional.softplus(pre_std) + 1e-5
dist = Normal(mu, std)
a = torch.tensor([[0.5, 0.5], [2.0, 0.0]])
lp = dist.log_prob(a).sum(-1)
lp.sum().backward()
print(std, lp, mu.grad, pre_std.grad, sep="\n")
print(dist.mean, dist.stddev, dist.variance, dist.scale is std, sep="\n")
print(dist.cdf(a), dist.icdf(torch.tensor([[0.5, 0.975], [0.025, 0.5]])), sep="\n")
print(Normal(0.0, 1.0).log_prob(torch.tensor(0.0)), Normal(torch.tensor(0.0), 1.0).batch_shape)
print(Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)).batch_shape, dist[0] if hasattr(dist, "__getitem__") else "no getitem")
reward_scaling = np.array([1.0, 0.5, 2.0]) / np.sqrt(4.0 + 1e-8)
print(np.clip(reward_scaling, -10, 10).round(4), torch.as_tensor(reward_scaling).float().dtype)
