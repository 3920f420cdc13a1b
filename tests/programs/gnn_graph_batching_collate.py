# A hand-written collate function for graph classification: concatenate node features, shift
# each graph's edge_index by the running node count (cumsum), build the batch vector, then a
# GIN-style model with sum aggregation and global add / mean / max readout, trained for a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

graphs = [
    (torch.tensor([[0., 1.], [1., 0.], [1., 1.]]), torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]]), 0),
    (torch.tensor([[2., 0.], [0., 2.]]), torch.tensor([[0, 1], [1, 0]]), 1),
    (torch.tensor([[1., 2.], [0., 1.], [3., 0.], [1., 1.]]), torch.tensor([[0, 1, 2, 3], [1, 2, 3, 0]]), 1),
    (torch.tensor([[0.5, 0.5]]), torch.empty(2, 0, dtype=torch.long), 0),
]

def collate(items):
    xs, eis, ys = zip(*items)
    sizes = torch.tensor([x.size(0) for x in xs])
    inc = torch.cumsum(sizes, 0) - sizes
    ei = torch.cat([e + off for e, off in zip(eis, inc)], dim=1)
    batch = torch.cat([torch.full((n,), i, dtype=torch.long) for i, n in enumerate(sizes.tolist())])
    return torch.cat(xs), ei, batch, torch.tensor(ys), sizes

x, ei, batch, y, sizes = collate(graphs)
print(x.shape, ei, batch, y, sizes, sep="\n")
print(torch.empty(2, 0, dtype=torch.long), torch.empty(2, 0).shape, (torch.empty(2, 0, dtype=torch.long) + 3).dtype)
ptr = F.pad(torch.cumsum(sizes, 0), (1, 0))
print(ptr, ptr.diff().equal(sizes), batch.bincount().equal(sizes))
print(torch.repeat_interleave(sizes).equal(batch))
edge_batch = batch[ei[0]]
print(edge_batch, torch.bincount(edge_batch, minlength=len(graphs)))
local = ei - ptr[edge_batch]
print(local)

class GINConv(nn.Module):
    def __init__(self, c_in, c_out, eps=0.0):
        super().__init__()
        self.eps = nn.Parameter(torch.tensor([eps]))
        self.mlp = nn.Sequential(nn.Linear(c_in, c_out), nn.ReLU(), nn.Linear(c_out, c_out))

    def forward(self, x, ei):
        agg = torch.zeros_like(x).scatter_add_(0, ei[1].unsqueeze(1).expand(-1, x.size(1)), x[ei[0]])
        return self.mlp((1 + self.eps) * x + agg)

class GraphClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = GINConv(2, 4)
        self.head = nn.Linear(12, 2)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                if p.dim() == 2:
                    p.copy_(torch.linspace(-0.7, 0.9, p.numel()).view_as(p).roll(i, 1))
                elif p.numel() > 1:
                    p.fill_(0.05 * i)

    def forward(self, x, ei, batch, num_graphs):
        h = F.relu(self.conv(x, ei))
        idx = batch.unsqueeze(1).expand_as(h)
        s = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)
        m = s / torch.bincount(batch, minlength=num_graphs).unsqueeze(1)
        mx = torch.zeros(num_graphs, h.size(1)).scatter_reduce(0, idx, h, "amax", include_self=False)
        return self.head(torch.cat([s, m, mx], dim=1))

model = GraphClassifier()
print(model)
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_parameters()])
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(25):
    opt.zero_grad()
    logits = model(x, ei, batch, len(graphs))
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(step, round(loss.item(), 4), round(model.conv.eps.item(), 5))
print(logits.argmax(1), (logits.argmax(1) == y).float().mean().item())
print(model.conv.eps.grad, model.conv.eps)
print(torch.allclose(F.softmax(logits, dim=-1).sum(-1), torch.ones(4)), F.softmax(logits, dim=-1).shape)
