# GAT attention by hand: e_ij = leaky_relu(a^T [W h_i || W h_j]), then a softmax over each
# node's incoming edges ("segment softmax") computed with scatter max / scatter sum.
import torch
import torch.nn as nn
import torch.nn.functional as F

def segment_softmax(src, index, num_nodes):
    # subtract the per-segment max for stability, as PyG's softmax does
    src_max = torch.zeros(num_nodes, *src.shape[1:]).scatter_reduce(
        0, index.view(-1, *[1] * (src.dim() - 1)).expand_as(src), src, reduce="amax", include_self=False)
    out = (src - src_max.index_select(0, index)).exp()
    out_sum = torch.zeros(num_nodes, *src.shape[1:]).index_add_(0, index, out)
    return out / (out_sum.index_select(0, index) + 1e-16)

class GATLayer(nn.Module):
    def __init__(self, in_f, out_f, heads=2):
        super().__init__()
        self.heads, self.out_f = heads, out_f
        self.lin = nn.Linear(in_f, heads * out_f, bias=False)
        self.att_src = nn.Parameter(torch.empty(1, heads, out_f))
        self.att_dst = nn.Parameter(torch.empty(1, heads, out_f))
        with torch.no_grad():
            self.lin.weight.copy_(torch.arange(heads * out_f * in_f * 1.).view(heads * out_f, in_f).cos())
            self.att_src.copy_(torch.tensor([[[0.5, -0.2], [0.4, -0.3]]]))
            self.att_dst.copy_(torch.tensor([[[-0.4, 0.6], [0.7, 0.1]]]))

    def forward(self, x, edge_index):
        N = x.size(0)
        h = self.lin(x).view(N, self.heads, self.out_f)
        a_s = (h * self.att_src).sum(-1)
        a_d = (h * self.att_dst).sum(-1)
        src, dst = edge_index
        e = F.leaky_relu(a_s[src] + a_d[dst], negative_slope=0.2)
        alpha = segment_softmax(e, dst, N)
        self.alpha = alpha
        out = torch.zeros(N, self.heads, self.out_f).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
        return out.mean(dim=1)

x = torch.tensor([[1., 0., 0.5], [0., 1., -0.5], [1., 1., 0.], [0.2, -0.3, 1.]])
edge_index = torch.tensor([[0, 1, 2, 3, 0, 1, 2, 3, 2],
                           [0, 1, 2, 3, 1, 2, 1, 2, 0]])
layer = GATLayer(3, 2)
print(layer)
out = layer(x, edge_index)
print(out, out.grad_fn.name())
print(layer.alpha)
sums = torch.zeros(4, 2).index_add_(0, edge_index[1], layer.alpha)
print(sums)
out.pow(2).sum().backward()
print(layer.att_src.grad[:, 0])
print(layer.att_dst.grad[:, 0])
print(layer.lin.weight.grad)

# check against a dense masked softmax
e = torch.tensor([0.3, -1.2, 2.0, 0.7, 1.1, -0.4])
dst = torch.tensor([0, 0, 1, 1, 1, 2])
s = segment_softmax(e, dst, 4)
dense = torch.full((4, 6), float("-inf"))
dense[dst, torch.arange(6)] = e
ref = torch.softmax(dense, dim=1)
print(s, ref)
print(torch.nan_to_num(ref, nan=0.0).sum(0))
print(F.leaky_relu(torch.tensor([-2., 0., 3.]), 0.2), F.leaky_relu(torch.tensor([-2.]), negative_slope=0.01, inplace=False))
print(nn.LeakyReLU(0.2), nn.LeakyReLU(0.2)(torch.tensor([-5., 5.])))
t = torch.tensor([-1., 0., 2.], requires_grad=True)
F.leaky_relu(t, 0.2).sum().backward()
print(t.grad)
y = F.leaky_relu(t, 0.2)
print(y.grad_fn.name())
