# The DQN tutorial's optimize_model() wrapped in torch.compile: Q(s,a) via gather, the target
# r + gamma * max_a' Q_target(s',a') computed under torch.no_grad() with terminal masking,
# smooth_l1_loss, clip_grad_value_, and target_net.load_state_dict(policy_net.state_dict()) every N steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, n_obs=4, n_actions=3):
        super().__init__()
        self.layer1 = nn.Linear(n_obs, 16)
        self.layer2 = nn.Linear(16, n_actions)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


policy_net = QNet()
with torch.no_grad():
    for i, p in enumerate(policy_net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view_as(p) * 0.4)
target_net = QNet()
target_net.load_state_dict(policy_net.state_dict())
optimizer = torch.optim.AdamW(policy_net.parameters(), lr=1e-2, amsgrad=True)
GAMMA = 0.9

N = 16
k = torch.arange(N, dtype=torch.float32)
states = torch.stack([torch.sin(k * 0.3), torch.cos(k * 0.2), torch.sin(k * 0.7), torch.cos(k * 0.5)], 1)
next_states = states.roll(-1, 0) * 0.9
actions = (torch.arange(N) % 3).unsqueeze(1)
rewards = torch.cos(k * 0.4)
done = (torch.arange(N) % 5 == 4)


@torch.compile
def optimize_model(s, a, r, s2, d):
    q = policy_net(s).gather(1, a)
    with torch.no_grad():
        next_v = target_net(s2).max(1).values
        next_v = torch.where(d, torch.zeros_like(next_v), next_v)
    expected = r + GAMMA * next_v
    loss = F.smooth_l1_loss(q, expected.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 1.0)
    optimizer.step()
    return loss.detach(), expected


for step in range(12):
    idx = torch.arange(step % 4, N, 2)[:6]
    loss, expected = optimize_model(states[idx], actions[idx], rewards[idx], next_states[idx], done[idx])
    if step % 4 == 3:
        target_net.load_state_dict(policy_net.state_dict())
        print(f"step {step} loss {loss.item():.5f} synced target, expected[:3] {[f'{v:.3f}' for v in expected[:3].tolist()]}")
    elif step % 2 == 0:
        print(f"step {step} loss {loss.item():.5f}")

print("expected requires_grad", expected.requires_grad)
with torch.no_grad():
    q_all = policy_net(states)
print("greedy actions", q_all.argmax(1).tolist())
print("target == policy", all(torch.equal(a, b) for a, b in zip(target_net.parameters(), policy_net.parameters())))
print("amsgrad state", sorted(optimizer.state[policy_net.layer1.weight].keys()))
print("target grads", target_net.layer1.weight.grad)
