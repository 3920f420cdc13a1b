# SAC-style squashed Gaussian actor as in Spinning Up / CleanRL sac_continuous_action.py:
# mean and log_std heads, log_std squashed into [LOG_STD_MIN, LOG_STD_MAX] with tanh, Normal
# log_prob of a fixed pre-tanh sample, the tanh correction log(1 - tanh(u)^2 + 1e-6) and the
# numerically stable softplus form, TransformedDistribution with TanhTransform, action rescaling.
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, TransformedDistribution
from torch.distributions.transforms import TanhTransform, AffineTransform

LOG_STD_MAX, LOG_STD_MIN = 2, -5


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 8)
        self.fc_mean = nn.Linear(8, act_dim)
        self.fc_logstd = nn.Linear(8, act_dim)
        high, low = np.array([2.0, 1.0], dtype=np.float32), np.array([-2.0, -1.0], dtype=np.float32)
        self.register_buffer("action_scale", torch.tensor((high - low) / 2.0, dtype=torch.float32))
        self.register_buffer("action_bias", torch.tensor((high + low) / 2.0, dtype=torch.float32))

    def forward(self, x):
        x = F.relu(self.fc1(x))
        mean = self.fc_mean(x)
        log_std = torch.tanh(self.fc_logstd(x))
        log_std = LOG_STD_MIN + 0.5 * (LOG_STD_MAX - LOG_STD_MIN) * (log_std + 1)
        return mean, log_std


actor = Actor(3, 2)
with torch.no_grad():
    for i, p in enumerate(actor.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape) * 0.5)
print(actor.action_scale, actor.action_bias, [n for n, _ in actor.named_buffers()])
obs = torch.tensor([[0.1, -0.4, 0.9], [1.0, 0.5, -0.3], [0.0, 0.0, 0.0]])
mean, log_std = actor(obs)
std = log_std.exp()
print(mean, log_std, std, sep="\n")
normal = torch.distributions.Normal(mean, std)
print(normal, normal.batch_shape, normal.event_shape)
eps_noise = torch.tensor([[0.5, -1.0], [0.0, 2.0], [-0.3, 0.3]])
x_t = mean + std * eps_noise  # what rsample() does with a fixed noise
y_t = torch.tanh(x_t)
action = y_t * actor.action_scale + actor.action_bias
log_prob = normal.log_prob(x_t)
log_prob -= torch.log(actor.action_scale * (1 - y_t.pow(2)) + 1e-6)
log_prob = log_prob.sum(1, keepdim=True)
print(action, log_prob, log_prob.grad_fn.name(), sep="\n")
# Spinning Up's numerically stable correction
logp_pi = Normal(mean, std).log_prob(x_t).sum(axis=-1)
logp_pi -= (2 * (np.log(2) - x_t - F.softplus(-2 * x_t))).sum(axis=1)
print(logp_pi, logp_pi.shape)
(-logp_pi.mean()).backward()
print(actor.fc_logstd.bias.grad, actor.fc_mean.bias.grad)

# the same thing with the distributions package
base = Independent(Normal(mean.detach(), std.detach()), 1)
print(base, base.batch_shape, base.event_shape)
squashed = TransformedDistribution(base, [TanhTransform(cache_size=1)])
y = torch.tanh(x_t.detach())
print(squashed.log_prob(y))
print(base.log_prob(x_t.detach()) - torch.log1p(-y.pow(2)).sum(-1))
scaled = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)),
                                 [TanhTransform(), AffineTransform(loc=actor.action_bias, scale=actor.action_scale)])
for attr in ("mean", "stddev", "entropy"):
    try:
        res = getattr(squashed, attr)
        print(attr, res() if callable(res) else res)
    except NotImplementedError as e:
        print(attr, "NotImplementedError", repr(str(e)))
print(squashed.support, squashed.has_rsample, squashed.batch_shape, squashed.event_shape)
print(scaled.log_prob(torch.tensor([0.5, -0.25])), scaled.event_shape, scaled.batch_shape)
print(TanhTransform().inv(torch.tensor([0.0, 0.5, -0.9])), torch.atanh(torch.tensor([0.0, 0.5, -0.9])))
print(base.entropy(), Normal(0.0, 1.0).entropy(), 0.5 + 0.5 * math.log(2 * math.pi))
mean_action = torch.tanh(mean) * actor.action_scale + actor.action_bias
print(mean_action.detach().numpy().dtype, mean_action.detach().cpu().numpy().round(3))

# alpha auto-tuning
target_entropy = -torch.prod(torch.Tensor((2,))).item()
log_alpha = torch.zeros(1, requires_grad=True)
a_optimizer = torch.optim.Adam([log_alpha], lr=3e-4)
alpha = log_alpha.exp().item()
alpha_loss = (-log_alpha.exp() * (log_prob.detach() + target_entropy)).mean()
a_optimizer.zero_grad()
alpha_loss.backward()
a_optimizer.step()
print(target_entropy, alpha, alpha_loss, log_alpha, log_alpha.grad)
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError", e)
try:
    Normal(mean, std).log_prob(torch.zeros(4, 2))
except Exception as e:
    print(type(e).__name__, e)
