# Dueling Double-DQN step: V + A - A.mean(1, keepdim=True) head, online argmax(1, keepdim=True)
# evaluated by the target net via gather, epsilon-greedy from a fixed uniform list, clip_grad_value_,
# and the soft target update with torch._foreach_lerp_ / _foreach_mul_ + _foreach_add_ (torchrl style).
import torch
import torch.nn as nn
import torch.nn.functional as F


class DuelingQ(nn.Module):
    def __init__(self, obs_dim=4, n_actions=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 10), nn.ReLU())
        self.value = nn.Linear(10, 1)
        self.adv = nn.Linear(10, n_actions)

    def forward(self, x):
        h = self.body(x)
        a = self.adv(h)
        return self.value(h) + a - a.mean(dim=1, keepdim=True)


online, target = DuelingQ(), DuelingQ()
with torch.no_grad():
    for i, (name, p) in enumerate(online.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + 2 * i).view_as(p) * 0.5)
target.load_state_dict(online.state_dict())
for p in target.parameters():
    p.requires_grad = False
print([n for n, _ in online.named_parameters()])

B = 8
obs = torch.stack([torch.cos(torch.arange(4) * 0.4 + 0.7 * i) for i in range(B)])
next_obs = obs.roll(-1, dims=0) * 0.9
rewards = torch.tensor([1., 0., 0., -1., 1., 0., 1., 0.])
dones = torch.tensor([False, False, True, False, False, False, True, False])
uniforms = [0.03, 0.8, 0.5, 0.01, 0.99, 0.2, 0.07, 0.6]
random_actions = [2, 0, 1, 1, 2, 0, 0, 1]

opt = torch.optim.RMSprop(online.parameters(), lr=1e-2, alpha=0.95, eps=0.01)
gamma, tau = 0.99, 0.1
for step in range(6):
    epsilon = max(0.05, 1.0 - step * 0.3)
    with torch.no_grad():
        greedy = online(obs).argmax(dim=1)
    actions = torch.tensor([random_actions[i] if uniforms[(i + step) % B] < epsilon else greedy[i].item()
                            for i in range(B)])
    q_values = online(obs)
    q_sa = q_values.gather(1, actions.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        next_actions = online(next_obs).argmax(1, keepdim=True)
        next_q = target(next_obs).gather(1, next_actions).squeeze(1)
        td_target = rewards + gamma * next_q * (~dones).float()
        vanilla = rewards + gamma * target(next_obs).max(1).values * dones.logical_not()
    loss = F.smooth_l1_loss(q_sa, td_target)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_value_(online.parameters(), clip_value=0.5)
    opt.step()
    max_grad = max(p.grad.abs().max().item() for p in online.parameters())
    with torch.no_grad():
        online_p = list(online.parameters())
        target_p = list(target.parameters())
        if step % 2 == 0:
            torch._foreach_lerp_(target_p, online_p, tau)
        else:
            torch._foreach_mul_(target_p, 1.0 - tau)
            torch._foreach_add_(target_p, online_p, alpha=tau)
    print(step, f"eps={epsilon:.2f}", actions.tolist(), f"{loss.item():.4f}", max_grad <= 0.5,
          f"{(td_target - vanilla).abs().max().item():.4f}")

with torch.no_grad():
    norms = torch._foreach_norm([p - t for p, t in zip(online.parameters(), target.parameters())])
print([round(n.item(), 4) for n in norms], target.value.bias.requires_grad)
q = online(obs)
print(q.shape, q.grad_fn.name(), q.max(1), q.argmax(1).dtype)
print(torch.max(q, dim=1, keepdim=True).values.shape, q.detach().amax(1).round(decimals=3))
