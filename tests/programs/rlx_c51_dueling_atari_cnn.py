# Atari-style value networks as CleanRL (dqn_atari.py, c51.py) and Rainbow tutorials write them:
# a Nature-CNN on uint8 frame stacks scaled by / 255.0, a dueling head
# (V + A - A.mean(1, keepdim=True)), and the C51 categorical projection of the target
# distribution onto fixed atoms with clamp / floor / ceil and index_add_ / scatter_add_.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

frames = [np.full((12, 12), 10 * k, dtype=np.uint8) + np.arange(144, dtype=np.uint8).reshape(12, 12) for k in range(4)]
stacked = np.stack(frames, axis=0)[None]  # (1, 4, 12, 12) like a LazyFrames batch
obs = torch.Tensor(stacked)
print(stacked.dtype, obs.dtype, obs.shape, torch.as_tensor(stacked).dtype, obs.max(), (obs / 255.0).max())
obs_hwc = torch.from_numpy(np.ascontiguousarray(stacked.transpose(0, 2, 3, 1)))
print(obs_hwc.shape, obs_hwc.permute(0, 3, 1, 2).is_contiguous(), torch.equal(obs_hwc.permute(0, 3, 1, 2).float(), obs))


class DuelingCNN(nn.Module):
    def __init__(self, n_actions=3, n_atoms=1):
        super().__init__()
        self.n_actions, self.n_atoms = n_actions, n_atoms
        self.network = nn.Sequential(nn.Conv2d(4, 4, 4, stride=2), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2), nn.ReLU(),
                                     nn.Flatten())
        self.value = nn.Linear(8 * 2 * 2, n_atoms)
        self.advantage = nn.Linear(8 * 2 * 2, n_actions * n_atoms)

    def forward(self, x):
        h = self.network(x / 255.0)
        v = self.value(h).view(-1, 1, self.n_atoms)
        a = self.advantage(h).view(-1, self.n_actions, self.n_atoms)
        return v + a - a.mean(dim=1, keepdim=True)


net = DuelingCNN()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.31 + i).view(p.shape) * 0.3)
print(net.network(obs / 255.0).shape, [m.__class__.__name__ for m in net.network])
q = net(obs).squeeze(-1)
print(q, q.argmax(1), q.mean(1))
q.max(1)[0].sum().backward()
print(net.value.bias.grad, net.advantage.bias.grad, net.network[0].bias.grad)

# C51 projection (CleanRL c51.py)
n_atoms, v_min, v_max, gamma = 5, -2.0, 2.0, 0.9
atoms = torch.linspace(v_min, v_max, steps=n_atoms)
delta_z = atoms[1] - atoms[0]
next_pmfs = torch.softmax(torch.tensor([[0.0, 1.0, 2.0, 1.0, 0.0], [3.0, 0.0, 0.0, 0.0, -1.0], [0.0, 0.0, 0.0, 0.0, 0.0]]), dim=1)
rewards = torch.tensor([0.5, -1.0, 1.3])
dones = torch.tensor([0.0, 0.0, 1.0])
next_atoms = rewards.unsqueeze(-1) + gamma * atoms * (1 - dones.unsqueeze(-1))
tz = next_atoms.clamp(v_min, v_max)
b = (tz - v_min) / delta_z
l = b.floor().clamp(0, n_atoms - 1)
u = b.ceil().clamp(0, n_atoms - 1)
d_m_l = (u + (l == u).float() - b) * next_pmfs
d_m_u = (b - l) * next_pmfs
target_pmfs = torch.zeros_like(next_pmfs)
for i in range(target_pmfs.size(0)):
    target_pmfs[i].index_add_(0, l[i].long(), d_m_l[i])
    target_pmfs[i].index_add_(0, u[i].long(), d_m_u[i])
print(atoms, delta_z, tz, b, l.dtype, l, u, sep="\n")
print(target_pmfs, target_pmfs.sum(1), sep="\n")

# the vectorised projection with scatter_add_ over a flattened offset index
offset = (torch.arange(3) * n_atoms).unsqueeze(1).expand(3, n_atoms)
proj = torch.zeros(3 * n_atoms)
proj.scatter_add_(0, (l.long() + offset).view(-1), d_m_l.view(-1))
proj.scatter_add_(0, (u.long() + offset).view(-1), d_m_u.view(-1))
print(torch.allclose(proj.view(3, n_atoms), target_pmfs), offset)
logits = torch.tensor([[0.2, 0.1, -0.3, 0.5, 0.0]] * 3, requires_grad=True)
old_pmfs = F.softmax(logits, dim=1)
loss = (-(target_pmfs * old_pmfs.clamp(min=1e-5, max=1 - 1e-5).log()).sum(-1)).mean()
loss.backward()
print(loss, logits.grad, sep="\n")
q_values = (old_pmfs * atoms).sum(1)
print(q_values, (torch.softmax(torch.zeros(2, 3, n_atoms), -1) * atoms).sum(2).abs().max() < 1e-6)
