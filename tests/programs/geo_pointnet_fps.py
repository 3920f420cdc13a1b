# PointNet-style classifier on point clouds: farthest point sampling loop, ball-query grouping
# with gather, shared MLP via Conv1d(k=1), symmetric max pooling (with argmax "critical points"),
# T-Net orthogonality regularizer ||I - A A^T||_F via torch.linalg.matrix_norm / torch.norm.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def farthest_point_sample(xyz, npoint):
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long)
    distance = torch.ones(B, N) * 1e10
    farthest = torch.zeros(B, dtype=torch.long)
    batch_indices = torch.arange(B, dtype=torch.long)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        mask = dist < distance
        distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids


def index_points(points, idx):
    B = points.shape[0]
    view_shape = list(idx.shape)
    view_shape[1:] = [1] * (len(view_shape) - 1)
    repeat_shape = list(idx.shape)
    repeat_shape[0] = 1
    batch_indices = torch.arange(B, dtype=torch.long).view(view_shape).repeat(repeat_shape)
    return points[batch_indices, idx, :]


def query_ball_point(radius, nsample, xyz, new_xyz):
    B, N, _ = xyz.shape
    S = new_xyz.shape[1]
    group_idx = torch.arange(N, dtype=torch.long).view(1, 1, N).repeat([B, S, 1])
    sqrdists = torch.cdist(new_xyz, xyz) ** 2
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, 0].view(B, S, 1).repeat([1, 1, nsample])
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


class PointNet(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 16, 1)
        self.conv2 = nn.Conv1d(16, 32, 1)
        self.bn1 = nn.BatchNorm1d(16)
        self.fc = nn.Linear(32, k)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x.transpose(2, 1))))
        x = self.conv2(x)
        feat, crit = torch.max(x, 2)
        return self.fc(feat), crit


n = torch.arange(64, dtype=torch.float32)
clouds = torch.stack([
    torch.stack([torch.cos(n * 0.7), torch.sin(n * 0.7), n / 64], -1),
    torch.stack([torch.sin(n * 1.1) * (n / 64), torch.cos(n * 0.3), torch.sin(n * 0.5)], -1),
])
fps = farthest_point_sample(clouds, 8)
print("fps idx\n", fps)
centers = index_points(clouds, fps)
print("centers", centers.shape, centers[0, :3])
grp = query_ball_point(0.5, 6, clouds, centers)
print("group idx\n", grp[0, :4])
grouped = index_points(clouds, grp) - centers.unsqueeze(2)
print("grouped", grouped.shape, grouped.norm(dim=-1).max().item() <= 0.5 + 1e-6)

model = PointNet()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape) * 0.4)
print([k for k in model.state_dict().keys()])
labels = torch.tensor([0, 2])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(15):
    logits, crit = model(clouds)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}", crit.shape, crit[0, :6].tolist())
model.eval()
with torch.no_grad():
    logits, crit = model(clouds)
print("pred", logits.argmax(-1), "critical unique", torch.unique(crit[0]).numel())
print("bn running mean", model.bn1.running_mean[:4])

# T-Net feature transform regularizer
A = torch.eye(4) + 0.1 * torch.sin(torch.arange(16.0)).reshape(4, 4)
A = A.unsqueeze(0).repeat(2, 1, 1).requires_grad_(True)
I = torch.eye(4).unsqueeze(0)
reg = torch.mean(torch.norm(torch.bmm(A, A.transpose(2, 1)) - I, dim=(1, 2)))
reg2 = torch.linalg.matrix_norm(A @ A.mT - I).mean()
print(f"reg {reg.item():.5f} {reg2.item():.5f}")
reg.backward()
print(A.grad[0])
