# Edge-conditioned convolutions by hand: a k-NN graph from torch.cdist + topk (DGCNN's EdgeConv,
# max aggregation), and an NNConv-style layer whose per-edge weight matrix comes from an edge MLP
# and is applied with torch.bmm, then mean-aggregated with scatter_reduce.
import torch
import torch.nn as nn
import torch.nn.functional as F

pos = torch.tensor([[0.0, 0.0], [1.0, 0.1], [0.2, 1.3], [2.1, 2.0], [3.0, 0.4], [1.7, 3.1]])
N, k = pos.size(0), 2
dist = torch.cdist(pos, pos)
print(dist.shape, dist.diagonal())
dist.fill_diagonal_(float("inf"))
knn_d, knn_idx = dist.topk(k, dim=1, largest=False)
print(knn_idx, knn_d)
src = knn_idx.reshape(-1)
dst = torch.arange(N).repeat_interleave(k)
edge_index = torch.stack([src, dst])
print(edge_index)
sq = (pos.unsqueeze(1) - pos.unsqueeze(0)).pow(2).sum(-1)
print(torch.allclose(sq.sqrt().fill_diagonal_(float("inf")), dist), sq.argsort(dim=1)[:, 1:k + 1].equal(knn_idx))

class EdgeConv(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * c_in, c_out), nn.ReLU())
        with torch.no_grad():
            self.mlp[0].weight.copy_(torch.linspace(-1, 1, 2 * c_in * c_out).view(c_out, 2 * c_in).cos())
            self.mlp[0].bias.fill_(0.1)

    def forward(self, x, ei):
        x_i, x_j = x[ei[1]], x[ei[0]]
        m = self.mlp(torch.cat([x_i, x_j - x_i], dim=-1))
        idx = ei[1].unsqueeze(-1).expand_as(m)
        return torch.zeros(x.size(0), m.size(1)).scatter_reduce(0, idx, m, "amax", include_self=False)

conv = EdgeConv(2, 3)
feat = pos.clone().requires_grad_()
h = conv(feat, edge_index)
print(h)
h.sum().backward()
print(feat.grad)
print(conv.mlp[0].weight.grad)

class NNConv(nn.Module):
    def __init__(self, c_in, c_out, e_dim):
        super().__init__()
        self.c_in, self.c_out = c_in, c_out
        self.edge_nn = nn.Linear(e_dim, c_in * c_out)
        self.root = nn.Linear(c_in, c_out)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p).mul(0.37).sin() * 0.5)

    def forward(self, x, ei, edge_attr):
        W = self.edge_nn(edge_attr).view(-1, self.c_in, self.c_out)
        msg = torch.bmm(x[ei[0]].unsqueeze(1), W).squeeze(1)
        idx = ei[1].unsqueeze(-1).expand_as(msg)
        agg = torch.zeros(x.size(0), self.c_out).scatter_reduce(0, idx, msg, "mean", include_self=False)
        return agg + self.root(x)

edge_attr = torch.stack([knn_d.reshape(-1), (pos[src] - pos[dst]).norm(dim=1) ** 2], dim=1)
print(edge_attr.shape, edge_attr[:3])
nn_conv = NNConv(2, 2, 2)
out = nn_conv(pos, edge_index, edge_attr)
print(out, out.grad_fn.name())
loss = F.mse_loss(out, torch.zeros_like(out))
loss.backward()
print(loss, nn_conv.edge_nn.weight.grad, nn_conv.root.bias.grad)
print(torch.einsum("ei,eio->eo", pos[src], nn_conv.edge_nn(edge_attr).view(-1, 2, 2)).allclose(
    torch.bmm(pos[src].unsqueeze(1), nn_conv.edge_nn(edge_attr).view(-1, 2, 2)).squeeze(1)))
