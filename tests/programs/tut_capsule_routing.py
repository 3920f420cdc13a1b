# A capsule network's core from the popular "CapsNet in PyTorch" blog posts, scaled down:
# PrimaryCaps (Conv2d -> view -> squash), DigitCaps with a 5-D weight W (1, routes, caps, out,
# in), x.unsqueeze(4) and torch.matmul broadcasting, dynamic routing by agreement
# (F.softmax over routes, sum, squash, b_ij update via matmul of transposes), margin loss and
# a masked reconstruction input.
import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(input_tensor, dim=-1):
    squared_norm = (input_tensor ** 2).sum(dim, keepdim=True)
    return squared_norm * input_tensor / ((1. + squared_norm) * torch.sqrt(squared_norm))


class PrimaryCaps(nn.Module):
    def __init__(self, num_capsules=4, in_channels=3, out_channels=2, kernel_size=3):
        super().__init__()
        self.capsules = nn.ModuleList([nn.Conv2d(in_channels, out_channels, kernel_size, stride=2)
                                       for _ in range(num_capsules)])

    def forward(self, x):
        u = [capsule(x) for capsule in self.capsules]
        u = torch.stack(u, dim=1)
        u = u.view(x.size(0), -1, 4)  # routes, 4-dim capsules
        return squash(u)


class DigitCaps(nn.Module):
    def __init__(self, num_capsules=3, num_routes=8, in_channels=4, out_channels=5):
        super().__init__()
        self.in_channels, self.num_routes, self.num_capsules = in_channels, num_routes, num_capsules
        self.W = nn.Parameter(torch.sin(torch.arange(num_routes * num_capsules * out_channels * in_channels, dtype=torch.float32) * 0.37)
                              .view(1, num_routes, num_capsules, out_channels, in_channels))

    def forward(self, x):
        batch_size = x.size(0)
        x = torch.stack([x] * self.num_capsules, dim=2).unsqueeze(4)
        W = torch.cat([self.W] * batch_size, dim=0)
        u_hat = torch.matmul(W, x)
        b_ij = torch.zeros(1, self.num_routes, self.num_capsules, 1)
        num_iterations = 3
        for iteration in range(num_iterations):
            c_ij = F.softmax(b_ij, dim=1)
            c_ij = torch.cat([c_ij] * batch_size, dim=0).unsqueeze(4)
            s_j = (c_ij * u_hat).sum(dim=1, keepdim=True)
            v_j = squash(s_j, dim=-2)
            if iteration < num_iterations - 1:
                a_ij = torch.matmul(u_hat.transpose(3, 4), torch.cat([v_j] * self.num_routes, dim=1))
                b_ij = b_ij + a_ij.squeeze(4).mean(dim=0, keepdim=True)
        return v_j.squeeze(1), c_ij


def margin_loss(x, labels):
    batch_size = x.size(0)
    v_c = torch.sqrt((x ** 2).sum(dim=2, keepdim=True))
    left = F.relu(0.9 - v_c).view(batch_size, -1)
    right = F.relu(v_c - 0.1).view(batch_size, -1)
    loss = labels * left + 0.5 * (1.0 - labels) * right
    return loss.sum(dim=1).mean()


torch.set_printoptions(precision=4)
primary = PrimaryCaps()
with torch.no_grad():
    for i, p in enumerate(primary.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.59 + i).view(p.shape) * 0.3)
digits = DigitCaps()
images = torch.sin(torch.arange(2 * 3 * 5 * 5, dtype=torch.float32) * 0.23).view(2, 3, 5, 5)
u = primary(images)
print(u.shape, u.norm(dim=-1)[0])
v, c = digits(u)
print(v.shape, c.shape, c[0, :, :, 0, 0].sum(dim=0), v.squeeze(-1).norm(dim=-1))
labels = torch.eye(3).index_select(dim=0, index=torch.tensor([2, 0]))
loss = margin_loss(v, labels)
loss.backward()
print(loss, loss.grad_fn.name(), digits.W.grad.shape, digits.W.grad[0, 0, 0, :2])
classes = torch.sqrt((v ** 2).sum(2))
classes = F.softmax(classes, dim=1)
_, max_length_indices = classes.max(dim=1)
masked = torch.eye(3).index_select(dim=0, index=max_length_indices.squeeze(1))
recon_in = (v * masked[:, :, None, None]).view(v.size(0), -1)
print(max_length_indices.squeeze(1), masked, recon_in.shape, recon_in[0, :6])
opt = torch.optim.Adam(list(primary.parameters()) + list(digits.parameters()), lr=0.05)
for step in range(3):
    opt.zero_grad()
    v, _ = digits(primary(images))
    loss = margin_loss(v, labels)
    loss.backward()
    opt.step()
    print(f"step {step} margin loss {loss.item():.5f}")
