# Functionalization-style code using the *_copy ops: results own their memory, shapes/strides
# match the view, and the error messages match the view ops they mirror.
import torch

x = torch.arange(12.0).reshape(3, 4)
def attempt(name, fn):
    try:
        r = fn()
        if isinstance(r, (tuple, list)):
            print(name, [tuple(p.shape) for p in r], [p.is_contiguous() for p in r])
        else:
            print(name, tuple(r.shape), r.stride(), r.is_contiguous(), r._base is None)
    except (RuntimeError, IndexError, TypeError) as e:
        print(name, "->", type(e).__name__, e)

attempt("view_copy bad", lambda: torch.view_copy(x, (5, 3)))
attempt("view_copy -1", lambda: torch.view_copy(x.t(), (-1,)))
attempt("view_copy dtype", lambda: torch.view_copy(x, torch.int32))
attempt("select_copy oob", lambda: torch.select_copy(x, 0, 3))
attempt("select_copy neg", lambda: torch.select_copy(x, 1, -1))
attempt("slice_copy neg", lambda: torch.slice_copy(x, 1, -3, None))
attempt("slice_copy step0", lambda: torch.slice_copy(x, 0, 0, 2, 0))
attempt("permute_copy bad", lambda: torch.permute_copy(x, (0, 0)))
attempt("transpose_copy oob", lambda: torch.transpose_copy(x, 0, 2))
attempt("t_copy 3d", lambda: torch.t_copy(torch.zeros(2, 2, 2)))
attempt("t_copy 1d", lambda: torch.t_copy(torch.arange(3.0)))
attempt("expand_copy bad", lambda: torch.expand_copy(x, (3, 5)))
attempt("expand_copy ok", lambda: torch.expand_copy(x[:, :1], (3, 4)))
attempt("squeeze_copy dim", lambda: torch.squeeze_copy(torch.zeros(1, 3, 1), 0))
attempt("squeeze_copy dims", lambda: torch.squeeze_copy(torch.zeros(1, 3, 1), (0, 2)))
attempt("unsqueeze_copy oob", lambda: torch.unsqueeze_copy(x, 3))
attempt("unfold_copy big", lambda: torch.unfold_copy(x, 1, 5, 1))
attempt("diagonal_copy off", lambda: torch.diagonal_copy(x, -1))
attempt("split_copy", lambda: torch.split_copy(x, 3, 1))
attempt("split_with_sizes_copy", lambda: torch.split_with_sizes_copy(x, [1, 2]))
attempt("split_with_sizes_copy bad", lambda: torch.split_with_sizes_copy(x, [1, 1]))
attempt("unbind_copy", lambda: torch.unbind_copy(x, 1))
attempt("as_strided_copy oob", lambda: torch.as_strided_copy(x, (4, 4), (4, 1)))
attempt("narrow_copy oob", lambda: torch.narrow_copy(x, 1, 2, 3))
attempt("alias_copy", lambda: torch.alias_copy(x.t()))
attempt("detach_copy grad", lambda: torch.detach_copy(torch.ones(2, requires_grad=True)))
c = torch.view_as_complex_copy(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(c, c.dtype, torch.view_as_real_copy(c).shape)
g = torch.arange(6.0, requires_grad=True)
out = torch.permute_copy(torch.view_copy(g, (2, 3)), (1, 0))
print(out.grad_fn.__class__.__name__, out.requires_grad)
(out * torch.arange(6.0).view(3, 2)).sum().backward()
print(g.grad)
h = torch.arange(4.0, requires_grad=True)
s = torch.select_copy(h.view(2, 2), 1, 0)
print(s.grad_fn.__class__.__name__, s)
s.sum().backward()
print(h.grad)
