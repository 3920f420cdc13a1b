# SAC update as in SB3/CleanRL: twin Q critics in one ModuleList, torch.min over stacked Q values,
# critic freeze via requires_grad_(False) during the actor step, learnable log_alpha with target
# entropy, and SB3's polyak_update using torch.add(..., alpha=tau, out=...) under no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F

obs_dim, act_dim = 3, 2


def init_(module, k):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i + k).view_as(p) * 0.4)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_networks = nn.ModuleList([nn.Sequential(nn.Linear(obs_dim + act_dim, 8), nn.ReLU(), nn.Linear(8, 1))
                                         for _ in range(2)])

    def forward(self, obs, act):
        x = torch.cat([obs, act], dim=1)
        return tuple(q(x) for q in self.q_networks)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 8), nn.Tanh())
        self.mu = nn.Linear(8, act_dim)
        self.log_std = nn.Linear(8, act_dim)

    def forward(self, obs, eps):
        h = self.net(obs)
        mu, log_std = self.mu(h), self.log_std(h).clamp(-5, 2)
        std = log_std.exp()
        u = mu + std * eps
        a = torch.tanh(u)
        log_prob = (-0.5 * eps.pow(2) - log_std - 0.5 * torch.log(torch.tensor(2 * torch.pi))).sum(1, keepdim=True)
        log_prob = log_prob - torch.log(1 - a.pow(2) + 1e-6).sum(1, keepdim=True)
        return a, log_prob


critic, critic_target, actor = Critic(), Critic(), Actor()
init_(critic, 0.0)
init_(actor, 1.0)
critic_target.load_state_dict(critic.state_dict())
critic_target.requires_grad_(False)
print(sum(p.requires_grad for p in critic_target.parameters()), len(list(critic.parameters())))

log_alpha = torch.zeros(1, requires_grad=True)
target_entropy = -float(act_dim)
q_opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-3)
a_opt = torch.optim.Adam([log_alpha], lr=3e-3)
print(target_entropy, log_alpha, q_opt.param_groups[0]["lr"])

B = 6
obs = torch.stack([torch.sin(torch.arange(obs_dim) * 0.5 + i) for i in range(B)])
next_obs = torch.roll(obs, 1, 0)
acts = torch.tanh(torch.cos(torch.arange(B * act_dim, dtype=torch.float32)).view(B, act_dim))
rewards = torch.linspace(-1, 1, B).unsqueeze(1)
dones = torch.tensor([0., 0., 1., 0., 0., 1.]).unsqueeze(1)
eps_table = torch.cos(torch.arange(4 * B * act_dim, dtype=torch.float32) * 1.3).view(4, B, act_dim) * 0.5


def polyak_update(params, target_params, tau):
    with torch.no_grad():
        for param, target_param in zip(params, target_params):
            target_param.data.mul_(1 - tau)
            torch.add(target_param.data, param.data, alpha=tau, out=target_param.data)


for step in range(4):
    alpha = log_alpha.exp().detach()
    with torch.no_grad():
        next_a, next_logp = actor(next_obs, eps_table[step])
        next_q = torch.cat(critic_target(next_obs, next_a), dim=1)
        next_q, _ = torch.min(next_q, dim=1, keepdim=True)
        target_q = rewards + (1 - dones) * 0.99 * (next_q - alpha * next_logp)
    current_q = critic(obs, acts)
    critic_loss = 0.5 * sum(F.mse_loss(cq, target_q) for cq in current_q)
    q_opt.zero_grad()
    critic_loss.backward()
    q_opt.step()

    critic.requires_grad_(False)
    pi, logp = actor(obs, eps_table[step])
    q_pi = torch.min(*critic(obs, pi))
    actor_loss = (alpha * logp - q_pi).mean()
    pi_opt.zero_grad()
    actor_loss.backward()
    pi_opt.step()
    critic.requires_grad_(True)
    print(all(p.grad is None or p.grad.abs().sum() >= 0 for p in critic.parameters()),
          critic.q_networks[0][0].weight.requires_grad)

    alpha_loss = -(log_alpha * (logp + target_entropy).detach()).mean()
    a_opt.zero_grad()
    alpha_loss.backward()
    a_opt.step()
    polyak_update(critic.parameters(), critic_target.parameters(), 0.05)
    print(step, f"{critic_loss.item():.4f} {actor_loss.item():.4f} {alpha_loss.item():.4f} {log_alpha.item():.5f}",
          critic_loss.grad_fn.name(), q_pi.grad_fn.name())

diff = sum((p - tp).abs().sum() for p, tp in zip(critic.parameters(), critic_target.parameters()))
print(f"{diff.item():.4f}", critic_target.q_networks[1][2].bias.requires_grad, log_alpha.grad)
