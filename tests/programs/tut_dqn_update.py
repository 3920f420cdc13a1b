# The "Reinforcement Learning (DQN) Tutorial", scaled down and made deterministic: a
# namedtuple Transition replay memory (deque) filled from a fixed trajectory, policy/target
# networks synced with load_state_dict, the optimize_model step (non-final mask, gather,
# max(1).values, SmoothL1Loss, clip_grad_value_, AdamW with amsgrad) and the soft target update
# written over state_dict() entries.
import math
from collections import namedtuple, deque
import torch
import torch.nn as nn
import torch.optim as optim

Transition = namedtuple('Transition', ('state', 'action', 'next_state', 'reward'))


class ReplayMemory(object):
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):  # deterministic stand-in for random.sample
        return list(self.memory)[-batch_size:]

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 16)
        self.layer2 = nn.Linear(16, 16)
        self.layer3 = nn.Linear(16, n_actions)

    def forward(self, x):
        x = torch.relu(self.layer1(x))
        x = torch.relu(self.layer2(x))
        return self.layer3(x)


n_observations, n_actions = 4, 2
BATCH_SIZE, GAMMA, TAU, LR = 6, 0.99, 0.005, 1e-2
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 1000
policy_net = DQN(n_observations, n_actions)
target_net = DQN(n_observations, n_actions)
with torch.no_grad():
    for i, p in enumerate(policy_net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view(p.shape) * 0.4)
target_net.load_state_dict(policy_net.state_dict())
print(policy_net, list(policy_net.state_dict().keys()))
optimizer = optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
memory = ReplayMemory(8)

# fill the memory from a fixed trajectory; the last state is terminal
for t in range(10):
    state = torch.tensor([math.sin(t), math.cos(t), t / 10, -t / 10], dtype=torch.float32).unsqueeze(0)
    with torch.no_grad():
        action = policy_net(state).max(1).indices.view(1, 1) if t % 3 else torch.tensor([[t % 2]], dtype=torch.long)
    next_state = None if t == 9 else torch.tensor([math.sin(t + 1), math.cos(t + 1), (t + 1) / 10, -(t + 1) / 10]).unsqueeze(0)
    memory.push(state, action, next_state, torch.tensor([1.0 if t % 2 else -0.5]))
eps = EPS_END + (EPS_START - EPS_END) * math.exp(-1. * 10 / EPS_DECAY)
print(len(memory), memory.memory.maxlen, f"{eps:.4f}", memory.memory[0].action, memory.memory[-1].next_state)


def optimize_model():
    transitions = memory.sample(BATCH_SIZE)
    batch = Transition(*zip(*transitions))
    non_final_mask = torch.tensor(tuple(map(lambda s: s is not None, batch.next_state)), dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = (next_state_values * GAMMA) + reward_batch
    criterion = nn.SmoothL1Loss()
    loss = criterion(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss, non_final_mask, state_action_values, next_state_values


for step in range(4):
    loss, mask, sav, nsv = optimize_model()
    target_net_state_dict = target_net.state_dict()
    policy_net_state_dict = policy_net.state_dict()
    for key in policy_net_state_dict:
        target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)
    target_net.load_state_dict(target_net_state_dict)
    print(f"step {step} loss {loss.item():.5f}")
print(mask, sav.grad_fn.name(), sav.view(-1), nsv)
print(policy_net.layer3.bias, target_net.layer3.bias)
st = optimizer.state[policy_net.layer3.bias]
print(sorted(st.keys()), st['max_exp_avg_sq'], optimizer.defaults['weight_decay'])
with torch.no_grad():
    print(policy_net(torch.tensor([[0.1, 0.2, 0.3, 0.4]])).max(1))
