# Kipf & Welling's pygcn: a normalized adjacency built as torch.sparse.FloatTensor(indices, values,
# shape), GraphConvolution layers doing torch.spmm(adj, input @ W), trained with Adam on a small
# deterministic graph (two communities), printing loss and accuracy as the original train() does.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

# two 6-node rings joined by one bridge edge
edges = [(i, (i + 1) % 6) for i in range(6)] + [(6 + i, 6 + (i + 1) % 6) for i in range(6)]
edges += [(0, 6), (1, 4), (7, 10)]
n = 12
rows = [a for a, b in edges] + [b for a, b in edges] + list(range(n))
cols = [b for a, b in edges] + [a for a, b in edges] + list(range(n))
indices = torch.tensor([rows, cols], dtype=torch.long)
degree = torch.zeros(n).index_add_(0, indices[0], torch.ones(indices.shape[1]))
values = degree[indices[0]].pow(-0.5) * degree[indices[1]].pow(-0.5)
adj = torch.sparse.FloatTensor(indices, values, torch.Size([n, n]))
print(adj.is_sparse, adj.layout, adj._nnz(), adj.shape)
adj = adj.coalesce()
print(adj.indices()[:, :8])
print(adj.values()[:8])
print(torch.sparse.sum(adj, dim=1).to_dense())

features = torch.stack([torch.sin(torch.arange(n) * 0.7 + k) for k in range(5)], dim=1)
labels = torch.tensor([0] * 6 + [1] * 6)
idx_train = torch.tensor([0, 2, 4, 6, 8, 10])
idx_test = torch.tensor([1, 3, 5, 7, 9, 11])


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        self.bias = nn.Parameter(torch.FloatTensor(out_features)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.weight.size(1))
        with torch.no_grad():
            k = torch.arange(self.weight.numel(), dtype=torch.float32)
            self.weight.copy_((torch.cos(k * 1.3) * stdv).view_as(self.weight))
            self.bias.copy_(torch.linspace(-stdv, stdv, self.out_features))

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        return output + self.bias

    def __repr__(self):
        return f"{self.__class__.__name__} ({self.in_features} -> {self.out_features})"


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)


def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    return preds.eq(labels).double().sum() / len(labels)


model = GCN(5, 8, 2)
print(model)
optimizer = optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
for epoch in range(30):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} "
              f"acc_train: {acc_train.item():.4f}")
print(output.grad_fn, model.gc1.weight.grad.shape)
model.eval()
output = model(features, adj)
loss_test = F.nll_loss(output[idx_test], labels[idx_test])
print(f"Test set results: loss= {loss_test.item():.4f} accuracy= "
      f"{accuracy(output[idx_test], labels[idx_test]).item():.4f}")
