# Semi-supervised node classification (the Cora tutorial, shrunk): a 2-layer GCN whose propagation
# is written with index_select + index_add_, train / val / test boolean masks, Adam with weight
# decay, masked cross-entropy and accuracy = (pred[mask] == y[mask]).sum().item() / mask.sum().item().
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 8
edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 3, 4],
                           [1, 0, 2, 1, 3, 2, 5, 4, 6, 5, 7, 6, 4, 3]])
x = torch.stack([torch.linspace(0, 1, N), torch.linspace(1, 0, N).pow(2), torch.arange(N) % 2], dim=1)
y = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
train_mask = torch.zeros(N, dtype=torch.bool)
train_mask[torch.tensor([0, 1, 6, 7])] = True
val_mask = torch.tensor([False, False, True, False, False, True, False, False])
test_mask = ~(train_mask | val_mask)
print(x.dtype, x.shape, train_mask, test_mask.nonzero().view(-1))
print(train_mask.sum(), int(val_mask.sum()), (train_mask & test_mask).any())

def gcn_norm(edge_index, num_nodes):
    loops = torch.arange(num_nodes)
    ei = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    row, col = ei
    deg = torch.zeros(num_nodes).scatter_add_(0, col, torch.ones(col.numel()))
    dinv = deg.pow(-0.5)
    dinv[torch.isinf(dinv)] = 0.
    return ei, dinv[row] * dinv[col]

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, ei, norm):
        h = self.lin(x)
        msg = h.index_select(0, ei[0]) * norm.view(-1, 1)
        return torch.zeros_like(h).index_add_(0, ei[1], msg) + self.bias

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNConv(3, 4)
        self.conv2 = GCNConv(4, 2)
        for i, p in enumerate(p for n, p in self.named_parameters() if n.endswith("weight")):
            with torch.no_grad():
                p.copy_(torch.linspace(-0.6, 0.6, p.numel()).view_as(p).flip(1) * (i + 1))

    def forward(self, x, ei, norm):
        x = F.relu(self.conv1(x, ei, norm))
        x = F.dropout(x, training=self.training)
        return F.log_softmax(self.conv2(x, ei, norm), dim=1)

ei, norm = gcn_norm(edge_index, N)
print(norm)
model = Net()
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)

def evaluate(mask):
    model.eval()
    with torch.no_grad():
        pred = model(x, ei, norm).argmax(dim=1)
    correct = (pred[mask] == y[mask]).sum()
    return correct.item() / mask.sum().item(), pred

for epoch in range(1, 41):
    model.eval()  # dropout off so both libraries agree
    optimizer.zero_grad()
    out = model(x, ei, norm)
    loss = F.nll_loss(out[train_mask], y[train_mask])
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        train_acc, _ = evaluate(train_mask)
        val_acc, _ = evaluate(val_mask)
        print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}, Train: {train_acc:.4f}, Val: {val_acc:.4f}")

test_acc, pred = evaluate(test_mask)
print(f"Test Accuracy: {test_acc:.4f}", pred, pred.dtype)
print(out[train_mask].exp().round(decimals=3))
print(F.nll_loss(out, y, reduction="none")[train_mask])
print(model.conv1.lin.weight.grad.norm().item() > 0, loss.grad_fn.name())
print(F.cross_entropy(out.exp().log()[train_mask], y[train_mask]).item() == loss.item())
print(optimizer.state_dict()["param_groups"][0]["weight_decay"], len(optimizer.state))
