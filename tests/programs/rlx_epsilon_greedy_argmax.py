# Epsilon-greedy action selection as DQN tutorials write it: the linear and exponential epsilon
# schedules, q_values.argmax().item(), torch.argmax(q, dim=1).cpu().numpy(), max(1)[1].view(1, 1),
# ties (first index wins), a numpy "random" draw replaced by a fixed sequence, and the tabular
# Q-learning update on a torch Q-table.
import math
import numpy as np
import torch
import torch.nn as nn


def linear_schedule(start_e: float, end_e: float, duration: int, t: int):
    slope = (end_e - start_e) / duration
    return max(slope * t + start_e, end_e)


print([round(linear_schedule(1.0, 0.05, 10, t), 3) for t in (0, 5, 10, 20)])
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 200
print([f"{EPS_END + (EPS_START - EPS_END) * math.exp(-1. * s / EPS_DECAY):.4f}" for s in (0, 100, 1000)])

q_net = nn.Linear(2, 4, bias=False)
with torch.no_grad():
    q_net.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5]]))
draws = [0.95, 0.01, 0.5, 0.3]  # stand-in for random.random()
fixed_random_actions = [3, 1, 0, 2]
for step, (obs, u) in enumerate(zip([[1.0, 2.0], [3.0, -1.0], [0.0, 0.0], [2.0, 2.0]], draws)):
    epsilon = linear_schedule(0.5, 0.05, 4, step)
    if u < epsilon:
        action = fixed_random_actions[step]
        how = "random"
    else:
        with torch.no_grad():
            q_values = q_net(torch.Tensor(obs))
            action = q_values.argmax().item()
        how = "greedy"
    print(step, how, action, type(action).__name__, f"{epsilon:.3f}")

with torch.no_grad():
    obs_batch = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 0.0], [2.0, 2.0]])
    q_values = q_net(obs_batch)
    actions = torch.argmax(q_values, dim=1).cpu().numpy()
print(q_values, actions, actions.dtype, type(actions[0]).__name__)
print(q_values.max(1)[1].view(-1, 1), q_values.max(1), q_values.max(dim=1, keepdim=True).indices.shape)
print(q_values[2].argmax(), q_values[2].max(0), torch.tensor([3.0, 3.0, 1.0]).argmax(), torch.tensor([1, 5, 5]).argmax(0))
print(q_values.argmax(), q_values.argmax(1, keepdim=True).T, q_values.argmin(dim=-1))
v, i = torch.max(q_values, 1)
print(v, i, i.dtype, np.argmax(q_values.numpy(), axis=1))
sel = torch.tensor([[random_or_greedy] for random_or_greedy in [1, 0]], dtype=torch.long)
print(sel, sel.shape, torch.tensor([[2]], dtype=torch.long).item())
envs_random = np.array([0, 3, 1, 2])
explore_mask = np.array([True, False, False, True])
final = np.where(explore_mask, envs_random, actions)
print(final, torch.from_numpy(final), torch.where(torch.from_numpy(explore_mask), torch.from_numpy(envs_random), torch.from_numpy(actions)))

# tabular Q-learning with a torch table
n_states, n_actions = 4, 2
Q = torch.zeros(n_states, n_actions)
alpha, gamma = 0.5, 0.9
transitions = [(0, 1, 0.0, 1, False), (1, 1, 0.0, 2, False), (2, 0, 1.0, 3, True), (0, 1, 0.0, 1, False),
               (1, 1, 0.0, 2, False), (2, 0, 1.0, 3, True)]
for s, a, r, s2, done in transitions:
    target = r + (0 if done else gamma * torch.max(Q[s2]).item())
    Q[s, a] += alpha * (target - Q[s, a])
print(Q, Q.argmax(dim=1), Q[torch.tensor([0, 1]), torch.tensor([1, 1])])
policy = {s: int(Q[s].argmax()) for s in range(n_states)}
print(policy, Q.max(dim=1).values.mean(), f"{Q.sum():.6f}")
print(torch.max(Q, dim=1, keepdim=True), Q.amax(1))
print(torch.argmax(torch.tensor([float('nan'), 1.0])), torch.tensor([[0.0, -0.0]]).argmax(1), torch.tensor([]).numel())
try:
    torch.tensor([]).argmax()
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 0).max(1)
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
