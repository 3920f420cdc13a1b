# Rearranging tensors: squeeze/unsqueeze with negative and tuple dims, flip/roll, movedim/swapaxes,
# uneven chunk/split, repeat_interleave along a dim, masked_select/masked_fill broadcasting,
# scatter_ with reduce, index_add_ with alpha, and the error messages for bad shapes.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out if not isinstance(out, torch.Tensor) else tuple(out.shape))
    except Exception as e:  # noqa: BLE001  the message is the point
        print(label, "->", type(e).__name__ + ":", e)


x = torch.arange(6).view(1, 2, 1, 3)
print(x.squeeze().shape, x.squeeze(0).shape, x.squeeze(-2).shape, x.squeeze(1).shape, x.squeeze((0, 2)).shape)
print(x.unsqueeze(-1).shape, x.unsqueeze(0).shape, x.unsqueeze(-5).shape, torch.tensor(5).unsqueeze(0).shape)
print(torch.squeeze(torch.zeros(2, 1, 1)).shape, torch.zeros(1).squeeze().shape, torch.zeros(1, 1).squeeze(-1).shape)
attempt("unsqueeze(5)", lambda: x.unsqueeze(5))
attempt("squeeze(4)", lambda: x.squeeze(4))

g = torch.arange(12).view(3, 4)
print(g.flip(0), g.flip(1), g.flip((0, 1)))
print(torch.roll(g, 1), g.roll(-1, dims=1), g.roll(shifts=(1, 2), dims=(0, 1)), torch.arange(5).roll(7))
print(g.movedim(0, 1).shape, torch.zeros(2, 3, 4).movedim(-1, 0).shape)
print(g.swapaxes(0, 1).shape, torch.zeros(2, 3, 4).swapdims(0, 2).shape, torch.zeros(2, 3, 4).permute(2, 0, 1).shape)
print(g.narrow(1, 1, 2), g.narrow(0, -2, 2), g.select(1, -1), g.t().shape, torch.arange(3).t().shape)

t = torch.arange(11)
print([c.tolist() for c in t.chunk(4)], [c.numel() for c in t.chunk(6)], [c.numel() for c in torch.arange(5).chunk(4)])
print([s.tolist() for s in t.split(4)], [s.tolist() for s in t.split([1, 2, 8])], len(torch.arange(0).split(3)))
print([c.shape for c in g.chunk(2, dim=1)], [u.tolist() for u in g.unbind(1)])
attempt("split sizes", lambda: t.split([5, 5]))
attempt("chunk 0", lambda: t.chunk(0))

r = torch.tensor([[1, 2], [3, 4]])
print(r.repeat_interleave(2), r.repeat_interleave(2, dim=0), r.repeat_interleave(torch.tensor([1, 3]), dim=1))
print(torch.repeat_interleave(torch.tensor([2, 0, 1])), r.repeat(1, 2))

vals = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
row_mask = torch.tensor([True, False, True])
print(vals.masked_select(row_mask), vals.masked_fill(row_mask, 0.0), vals.masked_fill(vals < 0, float("nan")))
print(vals[vals > 0], vals.masked_fill(torch.tensor([[True], [False]]), -1.0))

src = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
index = torch.tensor([[0, 1, 0], [1, 1, 0]])
print(torch.zeros(2, 3).scatter_add_(0, index, src), torch.zeros(4).index_add_(0, torch.tensor([3, 0, 3]), torch.tensor([1.0, 2.0, 3.0]), alpha=2))
print(torch.zeros(2, 4).index_add_(1, torch.tensor([0, 3]), torch.ones(2, 2)), torch.ones(3).index_add(0, torch.tensor([1]), torch.tensor([5.0])))

# shape errors people paste into search engines
a, b = torch.ones(2, 3), torch.ones(3, 2)
attempt("add (2,3)+(3,2)", lambda: a + b)
attempt("add (2,3)+(2,)", lambda: a + torch.ones(2))
attempt("add (2,3)+(2,1)", lambda: a + torch.ones(2, 1))
attempt("mul (4,1,3)*(2,1)", lambda: torch.ones(4, 1, 3) * torch.ones(2, 1))
attempt("mul (2,3,4)*(3,)", lambda: torch.ones(2, 3, 4) * torch.ones(3))
attempt("view(4,-1)", lambda: a.view(4, -1))
attempt("view(-1,-1)", lambda: a.view(-1, -1))
attempt("reshape(7)", lambda: a.reshape(7))
attempt("t().view(6)", lambda: a.t().view(6))
attempt("t().reshape(6)", lambda: a.t().reshape(6))
attempt("t().contiguous().view(6)", lambda: a.t().contiguous().view(6))
attempt("expand(3,3)", lambda: a.expand(3, 3))
attempt("expand(4,2,3)", lambda: a.expand(4, 2, 3))
attempt("expand(2,-1)", lambda: a.expand(2, -1))
attempt("permute(0,0)", lambda: a.permute(0, 0))
attempt("permute(1)", lambda: a.permute(1))
attempt("transpose 3d t()", lambda: torch.ones(2, 3, 4).t())
attempt("flatten(1,0)", lambda: torch.ones(2, 3, 4).flatten(2, 1))
attempt("unflatten", lambda: torch.ones(2, 12).unflatten(1, (3, -1)))
attempt("unflatten bad", lambda: torch.ones(2, 12).unflatten(1, (5, -1)))
attempt("narrow bad", lambda: g.narrow(1, 3, 2))
attempt("masked_select shape", lambda: vals.masked_select(torch.tensor([True, False])))
attempt("masked_fill float mask", lambda: vals.masked_fill(torch.ones(3), 0.0))
attempt("index_add dim", lambda: torch.zeros(3).index_add_(0, torch.tensor([0, 1]), torch.ones(3)))
attempt("flip dup", lambda: g.flip(0, 0))

# less common spellings: tuple movedim, tile with an int, scatter_'s reduce=, fliplr/flipud, tensor_split
print(torch.zeros(2, 3, 4).movedim((0, 1), (2, 0)).shape, r.tile(2))
print(torch.full((2, 3), 10.0).scatter_(0, index, src, reduce="add"))
print(torch.full((2, 3), 10.0).scatter_(0, index, src, reduce="multiply"))
print(torch.full((2, 3), 10.0).scatter_(1, torch.tensor([[2], [0]]), 0.5, reduce="add"))
print(torch.fliplr(g)[0], torch.flipud(g)[0], torch.tensor_split(t, 3))
