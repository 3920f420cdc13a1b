# timm-style DropPath / stochastic depth built on x.new_empty(shape).bernoulli_(keep_prob),
# checked with keep_prob 0 and 1 so no random draw matters, plus in-place mask helpers.
import torch
import torch.nn as nn


def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0., scale_by_keep: bool = True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


dpr = [x.item() for x in torch.linspace(0, 0.3, 4)]
print(dpr)
blocks = nn.Sequential(*[DropPath(p) for p in dpr])
print(blocks)
x = torch.arange(12.).view(3, 2, 2).requires_grad_()
print(torch.equal(blocks.eval()(x), x), blocks.training)
print(drop_path(x, 1.0, training=True).sum(), drop_path(x, 0.0, training=True) is x)

m = x.new_empty((3, 1, 1))
print(m.shape, m.dtype, m.requires_grad)
print(m.bernoulli_(1.0).view(-1).tolist(), m.bernoulli_(0.0).view(-1).tolist())
probs = torch.tensor([[1.0], [0.0], [1.0]])
print(torch.bernoulli(probs).view(-1), torch.zeros(3).bernoulli_(probs.view(-1)))
print(torch.empty(4).fill_(2.0).bernoulli_(torch.tensor([1., 0., 1., 0.])))
keep = torch.tensor([1., 0., 1.]).view(3, 1, 1)
y = x * keep.div_(0.5)
y.sum().backward()
print(y[:, 0], x.grad[:, 0, 0])
try:
    torch.empty(2).bernoulli_(1.5)
except RuntimeError as e:
    print(type(e).__name__, e)

sz = 4
mask = torch.ones(sz, sz, dtype=torch.bool).triu_(1)
print(mask, mask.dtype)
lower = torch.full((sz, sz), 2.0).tril_(-1)
print(lower)
scores = torch.arange(16.).view(4, 4)
print(scores.masked_fill_(mask, float("-inf")).softmax(-1)[1])
n = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
print(n.clone().nan_to_num_(), n.clone().nan_to_num_(nan=0.0, posinf=1.0, neginf=-1.0))
sq = torch.tensor([1.0, -2.0, 3.0])
print(sq.square_(), sq.new_empty(0).shape, torch.empty(2, 3).random_(0, 1).sum())
print(torch.full((5,), 3.0).random_(3, 4), torch.empty(3).uniform_(2.0, 2.0))
