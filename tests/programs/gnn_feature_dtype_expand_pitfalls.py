# Node-feature pitfalls from forum threads: one-hot features are int64 and a bias-free GCN linear
# layer rejects them, and a feature template built with expand() shares one storage row, so a
# write through one row shows up in all of them (or is refused when elements would overlap).
import torch
import torch.nn.functional as F


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


# one-hot node features are int64: the GCN's bias-free linear layer rejects them
onehot = F.one_hot(torch.tensor([0, 2, 1, 2]), num_classes=3)
print(onehot.dtype)
lin_nobias = torch.nn.Linear(3, 2, bias=False)
lin_bias = torch.nn.Linear(3, 2)
show(lambda: lin_nobias(onehot))
show(lambda: lin_bias(onehot))
show(lambda: lin_nobias(onehot.double()))
show(lambda: onehot @ lin_nobias.weight.t())
print(lin_nobias(onehot.float()).shape)

# writing into an expanded feature template: every row shares one storage row
template = torch.zeros(3)
feats = template.expand(4, 3)
print(feats.stride(), feats.is_contiguous())
show(lambda: feats.__setitem__((0, 1), 5.0))
print(feats, template)
show(lambda: feats[2].add_(1))
print(template)
show(lambda: feats.fill_(-1))
print(template)
show(lambda: feats.__setitem__((slice(None), 0), 9.0))
show(lambda: feats.add_(1))
show(lambda: feats.scatter_add_(0, torch.tensor([[0, 1, 2]]), torch.ones(1, 3)))
print(feats.clone().index_add_(0, torch.tensor([0]), torch.ones(1, 3)))

# aggregating into an expanded zero buffer, and the fixes: repeat / clone / contiguous
buf = torch.zeros(1, 3).expand(4, 3)
show(lambda: buf.index_add_(0, torch.tensor([0, 1]), torch.ones(2, 3)))
rep = torch.zeros(1, 3).repeat(4, 1)
rep[0, 1] = 5.0
print(rep, rep.stride())
con = torch.zeros(1, 3).expand(4, 3).contiguous()
con.index_add_(0, torch.tensor([0, 0, 3]), torch.arange(9.).view(3, 3))
print(con, con.is_contiguous())
# an expanded boolean node mask is fine to *read* with
node_mask = torch.tensor([True, True, False, True]).unsqueeze(-1).expand(4, 3)
h = torch.arange(12.).view(4, 3)
print(h[node_mask].view(-1, 3), h.masked_fill(~node_mask, 0.).sum(0))
print(torch.where(node_mask, h, torch.zeros(())).mean(0), node_mask.stride())
