# TD3 / DDPG update in the CleanRL td3_continuous_action.py style: Q(s, a) networks on
# torch.cat([x, a], 1), target policy smoothing with clipped noise (fixed here instead of
# torch.randn_like), clamp to the action bounds with tensors, torch.min over twin targets,
# a delayed actor update through -qf1(obs, actor(obs)).mean(), and Polyak target updates.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim=3, act_dim=2):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim + act_dim, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x, a):
        x = torch.cat([x, a], 1)
        return self.fc2(F.relu(self.fc1(x)))


class Actor(nn.Module):
    def __init__(self, obs_dim=3, act_dim=2):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 8)
        self.fc_mu = nn.Linear(8, act_dim)
        self.register_buffer("action_scale", torch.tensor([2.0, 1.0]))
        self.register_buffer("action_bias", torch.tensor([0.0, 0.5]))

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return torch.tanh(self.fc_mu(x)) * self.action_scale + self.action_bias


def init(module, phase):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + phase + i).view(p.shape) * 0.5)


actor, qf1, qf2 = Actor(), QNetwork(), QNetwork()
init(actor, 0.0), init(qf1, 1.0), init(qf2, 2.0)
target_actor, qf1_target, qf2_target = copy.deepcopy(actor), copy.deepcopy(qf1), copy.deepcopy(qf2)
q_optimizer = torch.optim.Adam(list(qf1.parameters()) + list(qf2.parameters()), lr=1e-3)
actor_optimizer = torch.optim.Adam(list(actor.parameters()), lr=1e-3)
print(len(q_optimizer.param_groups[0]["params"]), [b for b in actor.buffers()])

obs = torch.tensor([[0.2, -0.5, 1.0], [1.0, 0.0, -0.3], [-0.7, 0.4, 0.2]])
next_obs = obs * 0.9 + 0.1
acts = torch.tensor([[0.5, 0.2], [-1.5, 1.2], [1.9, 0.0]])
rewards = torch.tensor([1.0, -0.5, 0.2])
dones = torch.tensor([0.0, 1.0, 0.0])
policy_noise, noise_clip, gamma, tau = 0.2, 0.5, 0.99, 0.005
low, high = actor.action_bias - actor.action_scale, actor.action_bias + actor.action_scale
fixed_normal = torch.tensor([[2.0, -3.0], [0.1, 0.4], [-0.5, 1.0]])
for global_step in range(4):
    with torch.no_grad():
        clipped_noise = (fixed_normal * policy_noise).clamp(-noise_clip, noise_clip) * target_actor.action_scale
        next_state_actions = (target_actor(next_obs) + clipped_noise).clamp(low, high)
        qf1_next_target = qf1_target(next_obs, next_state_actions)
        qf2_next_target = qf2_target(next_obs, next_state_actions)
        min_qf_next_target = torch.min(qf1_next_target, qf2_next_target)
        next_q_value = rewards.flatten() + (1 - dones.flatten()) * gamma * (min_qf_next_target).view(-1)
    qf1_a_values = qf1(obs, acts).view(-1)
    qf2_a_values = qf2(obs, acts).view(-1)
    qf1_loss = F.mse_loss(qf1_a_values, next_q_value)
    qf2_loss = F.mse_loss(qf2_a_values, next_q_value)
    qf_loss = qf1_loss + qf2_loss
    q_optimizer.zero_grad()
    qf_loss.backward()
    q_optimizer.step()
    print(global_step, f"{qf1_loss.item():.5f} {qf2_loss.item():.5f}", next_q_value)
    if global_step % 2 == 0:
        actor_loss = -qf1(obs, actor(obs)).mean()
        actor_optimizer.zero_grad()
        actor_loss.backward()
        print("actor", f"{actor_loss.item():.5f}", actor.fc_mu.bias.grad, actor.fc1.bias.grad)
        actor_optimizer.step()
        for param, target_param in zip(actor.parameters(), target_actor.parameters()):
            target_param.data.copy_(tau * param.data + (1 - tau) * target_param.data)
        for param, target_param in zip(qf1.parameters(), qf1_target.parameters()):
            target_param.data.copy_(tau * param.data + (1 - tau) * target_param.data)
print(clipped_noise, next_state_actions, low, high, sep="\n")
print(qf1.fc1.weight.grad is not None, target_actor.fc_mu.bias, qf1_target.fc2.bias)
print(actor(obs), torch.tensor([[3.0, -2.0]]).clamp(low, high), torch.clip(torch.tensor([[3.0, -2.0]]), min=low, max=high))
