# Embedding details: padding_idx rows get no gradient (and start at zero), repeated ids accumulate,
# negative padding_idx, from_pretrained with and without freeze, max_norm renormalising rows in
# place (at the end); then LayerNorm over several trailing dims, without affine, and without bias.
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(6, 3, padding_idx=0)
print(emb, emb.padding_idx, emb.weight[0])
with torch.no_grad():
    emb.weight[1:] = torch.arange(15.0).view(5, 3) / 10
ids = torch.tensor([[1, 3, 3, 0], [5, 0, 0, 3]])
out = emb(ids)
print(out.shape, out[1])
(out * torch.arange(1.0, 4.0)).sum().backward()
print(emb.weight.grad)
print(emb.weight.grad[0].abs().sum().item(), emb.weight.grad[3])

neg = nn.Embedding(4, 2, padding_idx=-1)
print(neg.padding_idx, neg.weight[3], neg)

pretrained = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]])
frozen = nn.Embedding.from_pretrained(pretrained)
trainable = nn.Embedding.from_pretrained(pretrained, freeze=False, padding_idx=0)
print(frozen.weight.requires_grad, trainable.weight.requires_grad, frozen, trainable)
print(frozen(torch.tensor([2, 1])), trainable(torch.tensor([[3]])))
trainable(torch.tensor([0, 1, 1, 2])).sum().backward()
print(trainable.weight.grad)


w = pretrained.clone().requires_grad_()
F.embedding(torch.tensor([[1, 1], [2, 0]]), w, padding_idx=0).pow(2).sum().backward()
print(w.grad)
print(emb(torch.tensor(2)).shape, emb(torch.tensor([], dtype=torch.long)).shape)
try:
    nn.Embedding(4, 2, padding_idx=4)
except AssertionError as e:
    print("AssertionError:", e)

# LayerNorm over the last two dims, like normalising a whole (seq, feature) block
x = torch.sin(torch.arange(2 * 3 * 4, dtype=torch.float32) * 1.7).view(2, 3, 4).requires_grad_()
ln2 = nn.LayerNorm([3, 4])
print(ln2, ln2.weight.shape, [n for n, _ in ln2.named_parameters()])
y = ln2(x)
print(y[0], y[1].mean().abs().item() < 1e-6)
ln_plain = nn.LayerNorm(4, elementwise_affine=False)
ln_nobias = nn.LayerNorm(4, bias=False, eps=1e-3)
print(ln_plain, ln_plain.weight, list(ln_plain.state_dict().keys()))
print(ln_nobias, ln_nobias.bias, list(ln_nobias.state_dict().keys()))
print(ln_plain(x)[1], ln_nobias(x)[1, 0])
with torch.no_grad():
    ln2.weight.copy_(torch.linspace(0.5, 2.0, 12).view(3, 4))
    ln2.bias.fill_(0.1)
(ln2(x) * torch.arange(24.0).view(2, 3, 4)).sum().backward()
print(x.grad[0], ln2.weight.grad, ln2.bias.grad)
print(F.layer_norm(x, (4,), weight=torch.tensor([1.0, -1.0, 2.0, 0.0]))[0, 0])
print(F.layer_norm(torch.tensor([[5.0, 5.0, 5.0]]), (3,)))
try:
    nn.LayerNorm(5)(x)
except RuntimeError as e:
    print("RuntimeError:", e)

# max_norm: looked-up rows are renormalised in place
norm = nn.Embedding.from_pretrained(pretrained.clone(), max_norm=1.0)
print(norm, norm(torch.tensor([2, 3])))
print(norm.weight)  # rows that were looked up got renormalised in place
print(F.embedding(torch.tensor([1, 2]), pretrained.clone(), max_norm=2.0, norm_type=1.0))
