# NNCLR: a support set (FIFO queue of normalized embeddings, register_buffer + torch.cat + slicing)
# whose nearest neighbour (argmax of z @ support.T, index_select) replaces the positive, with the
# neighbour detached; VICReg-style variance/covariance regularizers ((cov - eye).pow(2) masked by
# ~eye) added; the queue is updated under no_grad after each step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class NNMemoryBank(nn.Module):
    def __init__(self, size, dim):
        super().__init__()
        self.size = size
        self.register_buffer("bank", F.normalize(torch.cos(torch.arange(size * dim, dtype=torch.float32) * 0.77).view(size, dim), dim=1))
        self.register_buffer("ptr", torch.tensor(0))

    @torch.no_grad()
    def enqueue(self, z):
        self.bank = torch.cat([z.detach(), self.bank])[: self.size]
        self.ptr += z.shape[0]

    def nearest(self, z):
        sim = F.normalize(z, dim=1) @ self.bank.T
        idx = sim.argmax(dim=1)
        return torch.index_select(self.bank, 0, idx).detach(), idx


def nt_xent(a, b, t=0.2):
    a, b = F.normalize(a, dim=1), F.normalize(b, dim=1)
    logits = a @ b.T / t
    return F.cross_entropy(logits, torch.arange(a.shape[0]))


def vic_terms(z):
    n, d = z.shape
    z = z - z.mean(dim=0)
    std = torch.sqrt(z.var(dim=0) + 1e-4)
    var_loss = F.relu(1 - std).mean()
    cov = (z.T @ z) / (n - 1)
    eye = torch.eye(d, dtype=torch.bool)
    cov_loss = (cov - torch.eye(d)).pow(2)[~eye].sum() / d
    return var_loss, cov_loss


encoder = nn.Sequential(nn.Linear(5, 8), nn.SiLU(), nn.Linear(8, 4))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.67 + i).view_as(p) * 0.5)
bank = NNMemoryBank(size=10, dim=4)
print("buffers", [(n, tuple(b.shape), b.dtype) for n, b in bank.named_buffers()])
opt = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9)
x = torch.sin(torch.arange(4 * 5, dtype=torch.float32) * 0.45).view(4, 5)
for step in range(6):
    v1 = x + 0.1 * torch.cos(torch.arange(20.0).view(4, 5) * (step + 1))
    v2 = torch.roll(x, 1, dims=1) * 0.9
    z1, z2 = encoder(v1), encoder(v2)
    nn1, idx = bank.nearest(z1)
    var_loss, cov_loss = vic_terms(z1)
    loss = 0.5 * (nt_xent(nn1, z2) + nt_xent(bank.nearest(z2)[0], z1)) + var_loss + 0.04 * cov_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    bank.enqueue(F.normalize(z1, dim=1))
    print(step, f"{loss.item():.4f}", f"var={var_loss.item():.4f}", f"cov={cov_loss.item():.4f}", "nn idx", idx.tolist())
print("ptr", bank.ptr, "bank", tuple(bank.bank.shape), bank.bank.requires_grad)
print("bank row norms", bank.bank.norm(dim=1).round(decimals=4))
print(sorted(bank.state_dict().keys()))
