# StackOverflow: building tensors — ragged lists, lists of tensors, requires_grad on ints,
# "To copy construct from a tensor" warnings, numpy arrays with negative strides, dtype surprises.
import warnings

import numpy as np
import torch
import torch.nn as nn


def attempt(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            if isinstance(out, torch.Tensor):
                print(label, "->", out.dtype, out.requires_grad, out)
            else:
                print(label, "->", out)
        except Exception as e:  # noqa: BLE001
            print(label, "->", type(e).__name__ + ":", str(e))
    for c in caught:
        print("   warning:", c.category.__name__, str(c.message).splitlines()[0][:100])


# Q: ragged lists
attempt("ragged 2d", lambda: torch.tensor([[1, 2, 3], [4, 5]]))
attempt("ragged 3d", lambda: torch.tensor([[[1, 2]], [[3, 4], [5, 6]]]))
attempt("ragged scalar/list", lambda: torch.tensor([1, [2, 3]]))
attempt("string", lambda: torch.tensor(["a", "b"]))
attempt("None inside", lambda: torch.tensor([1.0, None]))
attempt("pad_sequence fix", lambda: nn.utils.rnn.pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])], batch_first=True))
attempt("mixed int float", lambda: torch.tensor([1, 2.5]))
attempt("mixed bool int", lambda: torch.tensor([True, 2]))
attempt("big int", lambda: torch.tensor([2 ** 63]))
attempt("empty nested", lambda: torch.tensor([[], []]))

# Q: lists of tensors
parts = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]
attempt("list of 1-d tensors", lambda: torch.tensor(parts))
attempt("list of 0-d tensors", lambda: torch.tensor([torch.tensor(1.5), torch.tensor(2.5)]))
attempt("stack fix", lambda: torch.stack(parts))
attempt("torch.Tensor(list)", lambda: torch.Tensor(parts))
attempt("tensor(tensor)", lambda: torch.tensor(parts[0]))
attempt("clone().detach() fix", lambda: parts[0].clone().detach())
attempt("as_tensor shares", lambda: torch.as_tensor(parts[0]) is parts[0])
attempt("FloatTensor(3)", lambda: torch.FloatTensor(3).shape)
attempt("Tensor(2, 3)", lambda: torch.Tensor(2, 3).shape)
attempt("Tensor(2.5)", lambda: torch.Tensor(2.5))
attempt("LongTensor float", lambda: torch.LongTensor([1.7, 2.2]))
attempt("tensor(3)", lambda: torch.tensor(3))
attempt("Tensor([3])", lambda: torch.Tensor([3]))

# Q: "Only Tensors of floating point and complex dtype can require gradients"
attempt("long requires_grad", lambda: torch.tensor([1, 2, 3], requires_grad=True))
attempt("arange requires_grad", lambda: torch.arange(3, requires_grad=True))
attempt("arange float fix", lambda: torch.arange(3.0, requires_grad=True))
attempt("zeros long", lambda: torch.zeros(2, dtype=torch.long, requires_grad=True))
attempt("bool requires_grad_", lambda: torch.tensor([True]).requires_grad_())
attempt("int requires_grad_(False)", lambda: torch.tensor([1]).requires_grad_(False))
attempt("Parameter long", lambda: nn.Parameter(torch.tensor([1, 2])))
attempt("Parameter long no grad", lambda: nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
attempt("set attr on non-leaf", lambda: setattr(torch.ones(2, requires_grad=True) * 2, "requires_grad", False))
attempt("float() after", lambda: torch.tensor([1, 2, 3]).float().requires_grad_())

# Q: from_numpy surprises
arr = np.arange(6).reshape(2, 3)
attempt("from_numpy dtype", lambda: torch.from_numpy(arr).dtype)
attempt("from_numpy float64", lambda: torch.from_numpy(np.linspace(0, 1, 3)))
attempt("negative strides", lambda: torch.from_numpy(arr[:, ::-1]))
attempt("copy fix", lambda: torch.from_numpy(arr[:, ::-1].copy()))
attempt("tensor() copies reversed", lambda: torch.tensor(arr[::-1]))
attempt("object array", lambda: torch.from_numpy(np.array([1, "a"], dtype=object)))
attempt("from_numpy list", lambda: torch.from_numpy([1, 2]))
t = torch.from_numpy(arr)
arr[0, 0] = 100
print("shared memory:", t[0, 0].item())
attempt("np scalar", lambda: torch.tensor(np.float32(2.5)))
attempt("np float64 * tensor", lambda: np.float64(2.0) * torch.ones(2))
