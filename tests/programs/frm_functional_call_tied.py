# Stateless evaluation the way meta-learning / model-averaging code does it:
# torch.func.functional_call with replaced params and buffers, tied weights,
# strict mode, plus skip_init and type_before_parametrizations helpers.
import torch
import torch.nn as nn
from torch.func import functional_call
from torch.nn.utils import skip_init
import torch.nn.utils.parametrize as P


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias=False)
        self.out.weight = self.emb.weight
        self.register_buffer("offset", torch.zeros(5))

    def forward(self, idx):
        return self.out(self.emb(idx)) + self.offset


m = Tiny()
with torch.no_grad():
    m.emb.weight.copy_(torch.arange(15.).view(5, 3) / 15)
idx = torch.tensor([0, 3])
print(m(idx))

params = {k: v.detach() * 2 for k, v in m.named_parameters()}
print(list(params))
print(functional_call(m, params, (idx,)))
print(functional_call(m, {"emb.weight": torch.ones(5, 3), "offset": torch.arange(5.)}, idx))
print(functional_call(m, ({"emb.weight": torch.ones(5, 3)}, {"offset": -torch.ones(5)}), (idx,)))
print(m.emb.weight[0], m.offset)
try:
    functional_call(m, {"emb.weight": torch.ones(5, 3), "out.weight": torch.zeros(5, 3)}, (idx,))
except ValueError as e:
    print(type(e).__name__, e)
print(functional_call(m, {"emb.weight": torch.ones(5, 3), "out.weight": torch.zeros(5, 3)}, (idx,), tie_weights=False))
try:
    functional_call(m, {"emb.weight": torch.ones(5, 3)}, (idx,), strict=True)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    functional_call(m, {"nope": torch.ones(1)}, (idx,), strict=True)
except RuntimeError as e:
    print(type(e).__name__, e)

w = torch.arange(15.).view(5, 3).requires_grad_()
y = functional_call(m, {"emb.weight": w}, (idx,)).sum()
y.backward()
print(w.grad)
print(m.emb.weight.grad)

lin = skip_init(nn.Linear, 3, 2, bias=False)
print(lin, lin.weight.shape, lin.weight.requires_grad)
try:
    skip_init(nn.ReLU)
except RuntimeError as e:
    print(type(e).__name__, e)


class Neg(nn.Module):
    def forward(self, x):
        return -x


l2 = nn.Linear(2, 2)
print(P.type_before_parametrizations(l2).__name__)
P.register_parametrization(l2, "weight", Neg())
print(type(l2).__name__, P.type_before_parametrizations(l2).__name__)
dst = nn.Linear(2, 2)
P.transfer_parametrizations_and_params(l2, dst)
print(type(dst).__name__, list(dst.state_dict().keys()))
print(torch.equal(dst.weight, l2.weight))
