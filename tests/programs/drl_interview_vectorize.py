# Interview drills: "vectorize this loop" answers built from the less common ops -- moving
# averages with cumsum/diff, run-length decode, symmetric matrix packing with triu_indices,
# batched softmax Jacobians with diag_embed, per-row top-k with take_along_dim, pairwise
# products with combinations -- checking values and that gradients flow through.
import torch

# moving average of window 3
x = torch.tensor([1., 2., 4., 7., 11., 16.])
cs = torch.cumsum(x, 0)
ma = torch.diff(cs, n=1, prepend=torch.zeros(1))
print(ma, (cs[3:] - cs[:-3]) / 3, x.unfold(0, 3, 1).mean(-1))
# run-length decode / encode roundtrip
values, counts = torch.tensor([5, 7, 5]), torch.tensor([2, 1, 3])
dec = values.repeat_interleave(counts)
enc = torch.unique_consecutive(dec, return_counts=True)
print(dec, enc, torch.equal(enc[1], counts))
starts = torch.cat([torch.tensor([0]), counts.cumsum(0)[:-1]])
print(starts, torch.diff(dec, prepend=dec[:1] - 1).ne(0).nonzero().flatten())
# pack / unpack a symmetric matrix
S = torch.tensor([[1., 2., 3.], [2., 4., 5.], [3., 5., 6.]])
iu = torch.triu_indices(3, 3)
packed = S[iu[0], iu[1]]
R = torch.zeros(3, 3)
R[iu[0], iu[1]] = packed
R = R + R.triu(1).mT
print(packed, R, torch.equal(R, S))
# batched softmax Jacobian: diag(p) - p p^T
logits = torch.tensor([[1., 2., 3.], [0., 0., 0.]])
p = logits.softmax(-1)
J = torch.diag_embed(p) - p.unsqueeze(-1) * p.unsqueeze(-2)
print(J, J.sum(-1).abs().max() < 1e-6)
# per-row top-2 by a separate score
feats = torch.tensor([[10., 20., 30., 40.], [1., 2., 3., 4.]])
score = torch.tensor([[0.3, 0.9, 0.1, 0.5], [0.7, 0.2, 0.8, 0.1]])
top = score.topk(2, dim=1).indices
print(top, torch.take_along_dim(feats, top, dim=1), feats.gather(1, top))
# all pairwise products of distinct entries
v = torch.tensor([2., 3., 5.])
pairs = torch.combinations(v)
print(pairs, pairs.prod(1), torch.cartesian_prod(v, v).prod(1).view(3, 3))
# sliding max via cummax inside windows and the reset trick
seg = torch.tensor([1., 3., 2., 5., 4.])
print(torch.cummax(seg, 0).values, torch.flip(torch.cummax(torch.flip(seg, [0]), 0).values, [0]))

# gradients through the compositions
xg = x.clone().requires_grad_()
mav = torch.diff(torch.cumsum(xg, 0), prepend=torch.zeros(1))
(mav * torch.arange(6.)).sum().backward()
print(mav.grad_fn.name(), xg.grad)
vg = v.clone().requires_grad_()
pp = torch.combinations(vg).prod(1).sum()
pp.backward()
print(pp, vg.grad, torch.combinations(vg).grad_fn.name())
vg.grad = None
cp = torch.cartesian_prod(vg, vg)
cp.prod(1).sum().backward()
print(cp.grad_fn.name(), vg.grad)
lg = logits.clone().requires_grad_()
pj = lg.softmax(-1)
Jg = torch.diag_embed(pj) - pj.unsqueeze(-1) * pj.unsqueeze(-2)
Jg.diagonal(dim1=-2, dim2=-1).sum().backward()
print(lg.grad)
Sg = S.clone().requires_grad_()
pk = Sg[tuple(torch.triu_indices(3, 3, 1))]
(pk * torch.tensor([1., 2., 3.])).sum().backward()
print(pk.grad_fn.name(), Sg.grad)
sg = seg.clone().requires_grad_()
rev = torch.flip(torch.cummax(torch.flip(sg, [0]), 0).values, [0])
rev.sum().backward()
print(rev.grad_fn.name(), sg.grad)
