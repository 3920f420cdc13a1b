# Pre-allocated circular replay buffer of uint8 frames (Atari style): ptr % capacity writes with
# index_copy_ / slice assignment, frame stacking with unfold and torch.stack over offsets,
# obs.float() / 255.0, torch.from_numpy memory sharing, and sampling with fixed index lists.
import numpy as np
import torch

capacity, H, W, k = 7, 3, 4, 3
frames = torch.zeros(capacity, H, W, dtype=torch.uint8)
actions = torch.zeros(capacity, dtype=torch.long)
rewards = torch.zeros(capacity)
dones = torch.zeros(capacity, dtype=torch.bool)
ptr, full = 0, False

for t in range(10):
    frame = ((torch.arange(H * W).view(H, W) * 17 + t * 31) % 256).to(torch.uint8)
    frames[ptr] = frame
    actions.index_copy_(0, torch.tensor([ptr]), torch.tensor([t % 3]))
    rewards[ptr] = float(t % 4 == 0)
    dones[ptr] = t in (4, 9)
    ptr = (ptr + 1) % capacity
    full = full or ptr == 0
print(ptr, full, frames.dtype, frames[:, 0, 0], actions, dones)

# frame stack of the k last frames for each valid index (wrap-around)
idx = torch.tensor([2, 5, 6])
offsets = torch.arange(-k + 1, 1)
stack_idx = (idx.unsqueeze(1) + offsets) % capacity
print(stack_idx)
stacked = frames[stack_idx]
print(stacked.shape, stacked.dtype, stacked[:, :, 0, 0])
obs = stacked.float() / 255.0
print(obs.dtype, obs[0, :, 0, :2].round(decimals=4))
# zero out frames that belong to a previous episode
prev_done = dones[stack_idx]
mask = torch.flip(torch.cumsum(torch.flip(prev_done[:, :-1].int(), [1]), 1), [1]) > 0
mask = torch.cat([mask, torch.zeros(len(idx), 1, dtype=torch.bool)], 1)
print(mask)
obs = obs.masked_fill(mask[:, :, None, None], 0.0)
print(obs.sum(dim=(2, 3)).round(decimals=3))

# unfold over a contiguous trajectory gives the same sliding stacks
traj = frames[:5]
windows = traj.unfold(0, k, 1)
print(windows.shape, torch.equal(windows.permute(0, 3, 1, 2)[1], traj[1:4]))
print(torch.stack([traj[i:i + k] for i in range(3)]).shape, windows.permute(0, 3, 1, 2).is_contiguous())

# numpy interop
np_frames = np.zeros((2, H, W), dtype=np.uint8)
shared = torch.from_numpy(np_frames)
shared[1, 0, 0] = 200
print(np_frames[1, 0, 0], shared.dtype, torch.as_tensor(np_frames).data_ptr() == shared.data_ptr())
copied = torch.tensor(np_frames)
copied[0, 0, 0] = 9
print(np_frames[0, 0, 0], copied.sum(), (shared.float() / 255).sum().round(decimals=4))
batch = torch.as_tensor(np.stack([np_frames, np_frames]), dtype=torch.float32)
print(batch.shape, batch.dtype, torch.as_tensor([0, 1, 2]).dtype, torch.as_tensor(np.float32(1.5)))
overflow = frames[:2, 0, :2].to(torch.int16) * 3
print(overflow, (frames[:2, 0, :2] * 3), frames[:2, 0, :2] + 250)
print(frames.element_size(), frames.nbytes, frames[0].numpy().dtype, frames.float().mean().round(decimals=2))
