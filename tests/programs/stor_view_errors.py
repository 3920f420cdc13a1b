# StackOverflow "RuntimeError: view size is not compatible with input tensor's size and stride":
# which views fail after transpose/permute/expand, and the in-place-on-expanded error.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
cases = {
    "transpose.view(-1)": lambda: x.transpose(0, 1).view(-1),
    "permute.view(6,4)": lambda: x.permute(1, 0, 2).view(6, 4),
    "permute.view(3,8)": lambda: x.permute(1, 0, 2).view(3, 8),
    "t_slice.view": lambda: x[:, :, ::2].view(-1),
    "slice.view(2,-1)": lambda: x[:, 1:].view(2, -1),
    "mT.view": lambda: x.mT.view(2, 12),
    "expand.view": lambda: x[:, :1].expand(2, 5, 4).view(-1),
    "expand.view ok": lambda: x[:, :1].expand(2, 5, 4).view(2, 5, 2, 2),
    "bad numel": lambda: x.view(5, 5),
    "two -1": lambda: x.view(-1, 2, -1),
    "neg dim": lambda: x.view(-2, 12),
    "flatten mid": lambda: x.transpose(1, 2).view(2, 12),
    "unflatten bad": lambda: x.unflatten(1, (2, 2)),
    "narrow oob": lambda: x.narrow(2, 3, 2),
    "select oob": lambda: x.select(1, 3),
    "expand bad": lambda: x.expand(2, 4, 4),
    "expand neg": lambda: torch.ones(3).expand(-1, 3),
    "as_strided oob": lambda: torch.arange(4.0).as_strided((3, 3), (1, 1)),
    "unfold big": lambda: torch.arange(4.0).unfold(0, 5, 1),
    "diagonal dims": lambda: x.diagonal(0, 1, 1),
}
for name, fn in cases.items():
    try:
        r = fn()
        print(name, "OK", tuple(r.shape), r.stride())
    except RuntimeError as e:
        print(name, "->", type(e).__name__, e)
    except IndexError as e:
        print(name, "->", type(e).__name__, e)

b = torch.zeros(3, 1).expand(3, 4)
for name, fn in {
    "add_": lambda: b.add_(1),
    "fill_": lambda: b.fill_(1),
    "setitem": lambda: b.__setitem__((0, 0), 1.0),
    "zero_": lambda: b.zero_(),
    "copy_": lambda: b.copy_(torch.ones(3, 4)),
    "mul_": lambda: b.mul_(2),
}.items():
    try:
        fn()
        print(name, "ok", b.sum().item())
    except RuntimeError as e:
        print(name, "->", e)
y = torch.arange(4.0).as_strided((3, 2), (1, 1))
try:
    y.add_(1)
except RuntimeError as e:
    print("overlap", e)
