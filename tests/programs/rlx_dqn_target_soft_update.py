# DQN / Double-DQN update as CleanRL dqn.py and countless blog posts write it:
# Q(s,a) via gather(1, a.unsqueeze(1)), target max(1)[0].detach(), (1 - done.float()) masks,
# F.smooth_l1_loss / F.huber_loss / F.mse_loss, hard target sync with load_state_dict, and the
# soft (Polyak) update three ways: .data.mul_().add_(), .data.copy_(tau*p + (1-tau)*t), lerp_.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim=3, n_actions=3):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(obs_dim, 6), nn.ReLU(), nn.Linear(6, n_actions))

    def forward(self, x):
        return self.network(x)


q_network = QNetwork()
with torch.no_grad():
    for i, p in enumerate(q_network.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.6)
target_network = QNetwork()
result = target_network.load_state_dict(q_network.state_dict())
print(result, result.missing_keys, list(q_network.state_dict()))
print(all(torch.equal(a, b) for a, b in zip(q_network.parameters(), target_network.parameters())))

obs = torch.tensor([[0.1, 0.5, -0.2], [1.0, -1.0, 0.3], [0.0, 0.2, 0.9], [-0.5, 0.4, 0.1]])
next_obs = obs.flip(0) * 0.8
actions = torch.tensor([0, 2, 1, 2])
rewards = torch.tensor([1.0, 0.0, -1.0, 0.5])
dones = torch.tensor([False, False, True, False])
gamma = 0.9
with torch.no_grad():
    target_max, _ = target_network(next_obs).max(dim=1)
    td_target = rewards.flatten() + gamma * target_max * (1 - dones.flatten().float())
q_all = q_network(obs)
old_val = q_all.gather(1, actions.unsqueeze(1)).squeeze()
print(q_all, target_max, td_target, old_val, sep="\n")
print(old_val.grad_fn.name(), q_all.gather(1, actions.view(-1, 1)).shape, q_all[torch.arange(4), actions])

# the pytorch-tutorial style: max(1)[0].detach() and a Double-DQN argmax variant
next_q = target_network(next_obs).max(1)[0].detach()
best = q_network(next_obs).argmax(dim=1, keepdim=True)
double_q = target_network(next_obs).gather(1, best).squeeze(1).detach()
print(next_q.requires_grad, next_q, best.flatten(), double_q)
expected = rewards + gamma * next_q * (~dones)
print(expected.dtype, expected)

for name, fn in [("smooth_l1", F.smooth_l1_loss), ("huber", F.huber_loss), ("mse", F.mse_loss)]:
    print(name, fn(old_val, td_target))
print(F.smooth_l1_loss(old_val, td_target, beta=0.5), F.huber_loss(old_val, td_target, delta=0.5))
print(nn.SmoothL1Loss(reduction="none")(old_val, td_target), nn.HuberLoss(delta=2.0))
loss = F.smooth_l1_loss(old_val, td_target)
optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-3)
optimizer.zero_grad()
loss.backward()
print(q_network.network[2].weight.grad)
optimizer.step()

tau = 0.1
t1, t2, t3 = copy.deepcopy(target_network), copy.deepcopy(target_network), copy.deepcopy(target_network)
for target_param, q_param in zip(t1.parameters(), q_network.parameters()):
    target_param.data.copy_(tau * q_param.data + (1.0 - tau) * target_param.data)
for target_param, q_param in zip(t2.parameters(), q_network.parameters()):
    target_param.data.mul_(1 - tau).add_(tau * q_param.data)
with torch.no_grad():
    for target_param, q_param in zip(t3.parameters(), q_network.parameters()):
        target_param.lerp_(q_param, tau)
print(t1.network[2].bias, t2.network[2].bias, t3.network[2].bias, sep="\n")
print(torch.allclose(t1.network[0].weight, t3.network[0].weight), (t1.network[0].weight - t2.network[0].weight).abs().max())
with torch.no_grad():
    torch._foreach_lerp_(list(target_network.parameters()), list(q_network.parameters()), tau)
print(target_network.network[2].bias, target_network.network[2].bias.requires_grad)
print(torch.lerp(torch.tensor([0.0, 10.0]), torch.tensor([1.0, 20.0]), 0.25),
      torch.lerp(torch.zeros(2), torch.ones(2), torch.tensor([0.1, 0.9])))
try:
    target_network.network[2].bias.lerp_(q_network.network[2].bias, 0.5)
except RuntimeError as e:
    print("RuntimeError", e)
sd = target_network.state_dict()
for k in sd:
    sd[k] = sd[k] * 0.5 + q_network.state_dict()[k] * 0.5
print(target_network.load_state_dict(sd), target_network.network[2].bias)
