# The forward of a small attention block written with the *_copy ops, as a functionalized graph
# (AOTAutograd / torch.export with functionalization) prints it: view_copy, permute_copy,
# transpose_copy, t_copy, expand_copy, split_with_sizes_copy, unsqueeze_copy, squeeze_copy,
# select_copy, slice_copy; checked against the view version, with grads and node names.
import torch

B, T, H, D = 2, 3, 2, 2
C = H * D
x = (torch.arange(B * T * C, dtype=torch.float32).view(B, T, C) * 0.21).cos().requires_grad_()
w_qkv = (torch.arange(3 * C * C, dtype=torch.float32).view(3 * C, C) * 0.13).sin().requires_grad_()


def attention_copies(x, w):
    qkv = torch.mm(torch.view_copy(x, [B * T, C]), torch.t_copy(w))
    q, k, v = torch.split_with_sizes_copy(torch.view_copy(qkv, [B, T, 3 * C]), [C, C, C], -1)
    q = torch.permute_copy(torch.view_copy(q, [B, T, H, D]), [0, 2, 1, 3])
    k = torch.permute_copy(torch.view_copy(k, [B, T, H, D]), [0, 2, 1, 3])
    v = torch.permute_copy(torch.view_copy(v, [B, T, H, D]), [0, 2, 1, 3])
    scores = torch.matmul(q, torch.transpose_copy(k, -2, -1)) / D ** 0.5
    mask = torch.expand_copy(torch.unsqueeze_copy(torch.ones(T, T).tril(), 0), [H, T, T])
    scores = scores.masked_fill(mask == 0, float("-inf"))
    out = torch.matmul(scores.softmax(-1), v)
    return torch.view_copy(torch.permute_copy(out, [0, 2, 1, 3]), [B, T, C])


def attention_views(x, w):
    q, k, v = (x @ w.t()).split(C, -1)
    q, k, v = (t.view(B, T, H, D).transpose(1, 2) for t in (q, k, v))
    scores = q @ k.transpose(-2, -1) / D ** 0.5
    scores = scores.masked_fill(torch.ones(T, T).tril() == 0, float("-inf"))
    return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C)


out = attention_copies(x, w_qkv)
ref = attention_views(x, w_qkv)
print(out.shape, out.is_contiguous(), torch.allclose(out, ref, atol=1e-6))
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
print(out[0])
out.pow(2).sum().backward()
gx, gw = x.grad.clone(), w_qkv.grad.clone()
x.grad = None
w_qkv.grad = None
ref.pow(2).sum().backward()
print(torch.allclose(gx, x.grad, atol=1e-5), torch.allclose(gw, w_qkv.grad, atol=1e-5))
print(gx[1])

last = torch.select_copy(out, 1, -1)
first_two = torch.slice_copy(out, 1, 0, 2)
squeezed = torch.squeeze_copy(torch.slice_copy(out, 0, 0, 1), 0)
print(last.shape, first_two.shape, squeezed.shape)
print(last.grad_fn.name(), first_two.grad_fn.name(), squeezed.grad_fn.name())
print(torch.diagonal_copy(out[0], 0, 0, 1))
pieces = torch.unbind_copy(out.detach(), 1)
print(len(pieces), pieces[0].shape, pieces[0]._base is None)
alias = torch.alias_copy(out.detach())
alias.zero_()
print(out.detach().abs().sum() > 0, alias.sum())
print(torch.as_strided_copy(torch.arange(6.), (2, 2), (1, 2)))
print(torch.unfold_copy(torch.arange(6.), 0, 3, 2))
print(torch.view_as_real_copy(torch.tensor([1 + 2j, -3j])))
d = torch.detach_copy(x)
print(d.requires_grad, d.grad_fn.name())
try:
    d.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
