# Replay buffers as people write them, and the dtype questions they raise: torch.tensor /
# torch.as_tensor / torch.stack / torch.from_numpy over lists of numpy arrays, Python floats,
# numpy bools and ints; zip(*batch) unpacking; np.float64 observations meeting float32 nets.
import random
import warnings
from collections import deque, namedtuple
import numpy as np
import torch
import torch.nn as nn

Experience = namedtuple("Experience", ["state", "action", "reward", "next_state", "done"])
memory = deque(maxlen=5)
for t in range(7):
    s = np.array([np.sin(t), np.cos(t), t / 7.0])  # float64, as gym returns for many envs
    s2 = np.array([np.sin(t + 1), np.cos(t + 1), (t + 1) / 7.0])
    memory.append(Experience(s, t % 2, 1.0 if t % 3 else -1.0, s2, t == 6))
print(len(memory), memory[0].action, memory[-1].done, type(memory[-1].done).__name__)

batch = list(memory)[1:4]  # stand-in for random.sample(memory, 3)
states, acts, rews, next_states, dones = zip(*batch)
print(type(states).__name__, len(states), type(states[0]).__name__)
st = torch.as_tensor(np.array(states))
print(st.dtype, st.shape)
st2 = torch.stack([torch.from_numpy(s) for s in states]).float()
print(st2.dtype, st2[0])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    st3 = torch.tensor(states, dtype=torch.float32)
    print(st3.shape, len(w), [str(x.message)[:60] for x in w])
print(torch.tensor(acts), torch.tensor(acts).dtype, torch.tensor(rews).dtype, torch.tensor(dones))
print(torch.as_tensor(acts, dtype=torch.int64).unsqueeze(-1).shape, torch.LongTensor(acts).view(-1, 1).dtype)
print(torch.FloatTensor(rews), torch.tensor(dones, dtype=torch.float32), torch.BoolTensor([True, False]))
print(torch.tensor(np.array(dones)).dtype, torch.tensor(np.array(acts)).dtype, torch.from_numpy(np.array(rews)).dtype)
print(torch.tensor(np.float32(0.5)).dtype, torch.tensor(np.float64(0.5)).dtype, torch.tensor(np.int64(3)).dtype,
      torch.tensor(np.bool_(True)).dtype, torch.as_tensor(2.0).dtype, torch.as_tensor(True).dtype)
print(torch.tensor([np.float32(1.0), 2.0]).dtype, torch.tensor([np.float64(1.0), np.float64(2.0)]).dtype,
      torch.tensor([1, 2.0]).dtype, torch.tensor([True, 1]).dtype, torch.tensor([np.int32(1), 2]).dtype)

# the classic error: a float64 batch into a float32 network
net = nn.Linear(3, 2)
try:
    net(st)
except RuntimeError as e:
    print("RuntimeError", e)
print(net(st.float()).shape, net(torch.FloatTensor(np.array(states))).dtype)

# a preallocated numpy buffer (SB3 / CleanRL style) sampled with an index array
obs_buf = np.zeros((6, 3), dtype=np.float32)
act_buf = np.zeros((6,), dtype=np.int64)
done_buf = np.zeros((6,), dtype=np.float32)
rew_buf = np.zeros(6)
for i in range(6):
    obs_buf[i] = np.arange(3) + i
    act_buf[i] = i % 3
    done_buf[i] = float(i == 4)
    rew_buf[i] = 0.5 * i
idxs = np.array([5, 0, 2])
data = dict(obs=obs_buf[idxs], act=act_buf[idxs], rew=rew_buf[idxs], done=done_buf[idxs])
tb = {k: torch.as_tensor(v, dtype=torch.float32) for k, v in data.items()}
print({k: (v.dtype, tuple(v.shape)) for k, v in tb.items()})
tb2 = {k: torch.as_tensor(v) for k, v in data.items()}
print({k: str(v.dtype) for k, v in tb2.items()})
shared = torch.from_numpy(obs_buf)
obs_buf[0, 0] = 42.0
print(shared[0], torch.as_tensor(obs_buf)[0, 0].item(), torch.tensor(obs_buf)[0, 0].item())
print(torch.from_numpy(obs_buf[idxs]).is_contiguous(), torch.from_numpy(obs_buf[:, 1]).stride())
print(torch.from_numpy(obs_buf).float() is not None, torch.from_numpy(obs_buf)[torch.from_numpy(idxs)])
print(torch.from_numpy(act_buf)[torch.tensor([1, 2])], torch.from_numpy(done_buf).bool())
try:
    torch.from_numpy(np.array([s for s in ["a", "b"]]))
except TypeError as e:
    print("TypeError", e)
try:
    torch.tensor([np.zeros(3), np.zeros(2)])
except ValueError as e:
    print("ValueError", e)
print(torch.tensor(np.stack(list(next_states))).shape, torch.stack([torch.tensor(x) for x in next_states], dim=1).shape)

# reward / done histories kept in a deque or as 0-d numpy arrays
recent = deque([1.0, 0.5, -1.0], maxlen=3)
for make in (lambda: torch.tensor(recent), lambda: torch.as_tensor(deque([True, False])).dtype,
             lambda: torch.tensor(list(recent)).mean(), lambda: torch.FloatTensor(recent)):
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)
zero_d = [np.array(1.0), np.array(0.5)]  # e.g. rewards.append(np.array(r)) from a vectorised env
for make in (torch.tensor, torch.as_tensor):
    try:
        print(make(zero_d))
    except Exception as e:
        print(make.__name__, type(e).__name__, e)
print(torch.tensor(np.array(zero_d)), torch.stack([torch.from_numpy(a) for a in zero_d]))
for bad in (lambda: torch.stack([np.zeros(2), np.ones(2)]), lambda: torch.cat([np.zeros(2), np.ones(2)]),
            lambda: torch.from_numpy(np.float64(1.0)), lambda: torch.LongTensor([np.bool_(True), np.bool_(False)])):
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
