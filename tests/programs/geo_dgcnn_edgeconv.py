# DGCNN EdgeConv block as in the reference implementation: knn from the -2 x^T x + |x|^2 trick
# with topk, graph features gathered via flattened index arithmetic, Conv2d(k=1) + BatchNorm2d +
# LeakyReLU(0.2), max over neighbours, then global max/avg pooling and a classifier.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


def knn(x, k):
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x ** 2, dim=1, keepdim=True)
    pairwise_distance = -xx - inner - xx.transpose(2, 1)
    return pairwise_distance.topk(k=k, dim=-1)[1]


def get_graph_feature(x, k=4, idx=None):
    batch_size, num_dims, num_points = x.size()
    if idx is None:
        idx = knn(x, k=k)
    idx_base = torch.arange(0, batch_size).view(-1, 1, 1) * num_points
    idx = (idx + idx_base).view(-1)
    x = x.transpose(2, 1).contiguous()
    feature = x.view(batch_size * num_points, -1)[idx, :]
    feature = feature.view(batch_size, num_points, k, num_dims)
    x = x.view(batch_size, num_points, 1, num_dims).repeat(1, 1, k, 1)
    return torch.cat((feature - x, x), dim=3).permute(0, 3, 1, 2).contiguous()


class DGCNN(nn.Module):
    def __init__(self, k=4, emb=16, classes=3):
        super().__init__()
        self.k = k
        self.conv1 = nn.Sequential(nn.Conv2d(6, 8, kernel_size=1, bias=False), nn.BatchNorm2d(8), nn.LeakyReLU(negative_slope=0.2))
        self.conv2 = nn.Sequential(nn.Conv2d(16, 8, kernel_size=1, bias=False), nn.BatchNorm2d(8), nn.LeakyReLU(negative_slope=0.2))
        self.conv5 = nn.Sequential(nn.Conv1d(16, emb, kernel_size=1, bias=False), nn.BatchNorm1d(emb), nn.LeakyReLU(negative_slope=0.2))
        self.linear = nn.Linear(emb * 2, classes)

    def forward(self, x):
        x1 = self.conv1(get_graph_feature(x, self.k)).max(dim=-1, keepdim=False)[0]
        x2 = self.conv2(get_graph_feature(x1, self.k)).max(dim=-1, keepdim=False)[0]
        x = self.conv5(torch.cat((x1, x2), dim=1))
        x = torch.cat((F.adaptive_max_pool1d(x, 1).view(x.size(0), -1), F.adaptive_avg_pool1d(x, 1).view(x.size(0), -1)), 1)
        return self.linear(x)


n = torch.arange(20, dtype=torch.float32)
pc = torch.stack([
    torch.stack([torch.cos(n * 0.3 + n ** 2 / 50), torch.sin(n * 0.3), (n / 20) ** 2]),
    torch.stack([n / 20 - 0.5, torch.cos(n * 0.7) * 0.5, torch.sin(n * 0.2)]),
    torch.stack([torch.sin(n), torch.cos(n * 1.3), torch.sin(n * 0.5) * torch.cos(n)]),
])
print("input", pc.shape)
idx = knn(pc, 4)
print("knn idx\n", idx[0, :5])
feat = get_graph_feature(pc, 4)
print("graph feature", feat.shape, feat[0, :, 0, 1])

model = DGCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + i).reshape(p.shape))
print(sum(p.numel() for p in model.parameters()), "params")
print([n for n, _ in model.named_buffers()][:3])
labels = torch.tensor([0, 1, 2])
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(12):
    logits = model(pc)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0 or step == 11:
        print(step, f"{loss.item():.4f}")
model.eval()
with torch.no_grad():
    out = model(pc)
print("eval logits", out.shape)
print("pred", out.argmax(1).tolist())
print("bn1 stats", model.conv1[1].running_var[:4], model.conv1[1].num_batches_tracked)
