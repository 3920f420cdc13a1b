# n-step returns the vectorized way: rewards.unfold(0, n, 1) @ gamma powers, done masks with
# cumprod over the window, discounted returns via flip/cumsum with gamma^-t scaling, via a
# triangular discount matrix (torch.triu) and via F.conv1d with a flipped kernel.
import torch
import torch.nn.functional as F

gamma = 0.9
n = 3
T = 10
rewards = torch.sin(torch.arange(T, dtype=torch.float32) * 0.7) + 0.5
dones = torch.tensor([0, 0, 0, 1, 0, 0, 0, 0, 1, 0], dtype=torch.float32)
values = torch.cos(torch.arange(T + n, dtype=torch.float32) * 0.3)

# windows of n rewards
padded = torch.cat([rewards, torch.zeros(n - 1)])
windows = padded.unfold(0, n, 1)
print(windows.shape, windows.stride(), windows.is_contiguous())
discounts = gamma ** torch.arange(n, dtype=torch.float32)
print(discounts)

done_windows = torch.cat([dones, torch.ones(n - 1)]).unfold(0, n, 1)
# a reward is counted only if no episode ended before it inside the window
alive = torch.cumprod(torch.cat([torch.ones(T, 1), 1 - done_windows[:, :-1]], dim=1), dim=1)
print(alive)
nstep = (windows * alive * discounts).sum(dim=1)
bootstrap_mask = alive[:, -1] * (1 - done_windows[:, -1])
nstep_returns = nstep + (gamma ** n) * bootstrap_mask * values[n:n + T]
print(nstep_returns.round(decimals=4))
print((windows @ discounts).round(decimals=4))
print(torch.einsum("tn,n->t", windows * alive, discounts).round(decimals=4))

# full Monte-Carlo discounted return (no dones): flip/cumsum trick
scale = gamma ** torch.arange(T, dtype=torch.float32)
ret_flip = torch.flip(torch.cumsum(torch.flip(rewards * scale, dims=[0]), dim=0), dims=[0]) / scale
ret_loop = []
G = 0.0
for r in reversed(rewards.tolist()):
    G = r + gamma * G
    ret_loop.insert(0, G)
ret_loop = torch.tensor(ret_loop)
print(ret_flip.round(decimals=3))
print(torch.allclose(ret_flip, ret_loop, atol=1e-5), (ret_flip - ret_loop).abs().max() < 1e-4)

# discount matrix
idx = torch.arange(T)
exponents = (idx.view(1, -1) - idx.view(-1, 1)).clamp(min=0).float()
D = torch.triu(gamma ** exponents)
print(D[:3, :5])
print(torch.allclose(D @ rewards, ret_loop, atol=1e-5))

# conv1d with a flipped kernel of discounts
kernel = (gamma ** torch.arange(T, dtype=torch.float32)).view(1, 1, -1)
conv = F.conv1d(F.pad(rewards.view(1, 1, -1), (0, T - 1)), kernel).view(-1)
print(conv.shape, torch.allclose(conv, ret_loop, atol=1e-5))

# with episode boundaries, reversed loop with masks
returns = torch.zeros(T)
running = 0.0
for t in reversed(range(T)):
    running = rewards[t] + gamma * running * (1.0 - dones[t])
    returns[t] = running
print(returns.round(decimals=3))
ep_ids = torch.cumsum(torch.cat([torch.zeros(1), dones[:-1]]), 0).long()
print(ep_ids, torch.bincount(ep_ids), torch.unique_consecutive(ep_ids, return_counts=True))
ep_return = torch.zeros(int(ep_ids.max()) + 1).index_add_(0, ep_ids, rewards)
print(ep_return.round(decimals=3), ep_return.argmax().item())

# the n-step view over a batch of environments: (T, N) -> unfold along time
batch_rewards = torch.stack([rewards, rewards.flip(0)], dim=1)
win = batch_rewards.unfold(0, n, 1)
print(win.shape, (win * discounts).sum(-1).shape, win[0])
print(batch_rewards.T.unfold(1, n, 2).shape, batch_rewards.unfold(0, 4, 3).tolist()[0])
