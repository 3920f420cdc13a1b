# Forum question: "expected sequence of length 3 at dim 1 (got 2)" from torch.tensor on ragged
# lists, lists of tensors, strings, None and mixed numpy inputs; and the usual fixes.
import numpy as np
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


attempt("ragged 2-D", lambda: torch.tensor([[1, 2, 3], [4, 5]]))
attempt("ragged 3-D", lambda: torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]]))
attempt("ragged depth", lambda: torch.tensor([[1, 2], 3]))
attempt("ragged depth 2", lambda: torch.tensor([1, [2, 3]]))
attempt("empty inner", lambda: torch.tensor([[], []]).shape)
attempt("empty vs non-empty", lambda: torch.tensor([[], [1]]))
attempt("strings", lambda: torch.tensor(["a", "b"]))
attempt("string number", lambda: torch.tensor("1.5"))
attempt("None", lambda: torch.tensor(None))
attempt("None in list", lambda: torch.tensor([1.0, None]))
attempt("dict", lambda: torch.tensor({"a": 1}))
attempt("set", lambda: torch.tensor({1, 2}))
attempt("tuple ok", lambda: torch.tensor((1, 2.5)))
attempt("bool+int", lambda: torch.tensor([True, 2]))
attempt("int overflow", lambda: torch.tensor([2 ** 63]))
attempt("int overflow int32", lambda: torch.tensor([2 ** 40], dtype=torch.int32))
attempt("uint8 negative", lambda: torch.tensor([-1], dtype=torch.uint8))
attempt("float to long dtype", lambda: torch.tensor([1.7, -1.7], dtype=torch.long))

# lists of tensors
ts = [torch.ones(2), torch.zeros(2)]
attempt("list of tensors", lambda: torch.tensor(ts))
attempt("list of 0-d tensors", lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
attempt("list of 1-elem tensors", lambda: torch.tensor([torch.tensor([1.0]), torch.tensor([2.0])]))
attempt("stack fix", lambda: torch.stack(ts))
attempt("list of grad tensors", lambda: torch.tensor([torch.ones(1, requires_grad=True).sum()]))
attempt("mixed tensor and float", lambda: torch.tensor([torch.tensor(1.0), 2.0]))
attempt("tensor of tensor", lambda: torch.tensor(torch.ones(2)))
attempt("Tensor(ragged)", lambda: torch.Tensor([[1, 2], [3]]))
attempt("Tensor(int)", lambda: torch.Tensor(3).shape)
attempt("Tensor(float)", lambda: torch.Tensor(2.5))
attempt("FloatTensor ragged", lambda: torch.FloatTensor([[1], [2, 3]]))
attempt("LongTensor floats", lambda: torch.LongTensor([1.5, 2.5]))

# numpy
attempt("numpy object array", lambda: torch.tensor(np.array([np.ones(2), np.ones(3)], dtype=object)))
attempt("from_numpy object", lambda: torch.from_numpy(np.array(["a", "b"])))
attempt("from_numpy list", lambda: torch.from_numpy([1, 2]))
attempt("from_numpy negative stride", lambda: torch.from_numpy(np.arange(4)[::-1]))
attempt("from_numpy copy fix", lambda: torch.from_numpy(np.arange(4)[::-1].copy()))
attempt("as_tensor ragged", lambda: torch.as_tensor([[1], [2, 3]]))
attempt("list of numpy arrays", lambda: torch.tensor([np.ones(2), np.zeros(2)]).dtype)
attempt("numpy float32 scalar", lambda: torch.tensor(np.float32(1.5)).dtype)
attempt("zeros negative", lambda: torch.zeros(-1))
attempt("zeros float size", lambda: torch.zeros(2.0))
attempt("zeros tensor size", lambda: torch.zeros(torch.tensor([2, 3])))
attempt("ones list and int", lambda: torch.ones([2], 3))
attempt("arange bad", lambda: torch.arange(0, 5, -1))
attempt("arange zero step", lambda: torch.arange(0, 5, 0))
attempt("linspace negative steps", lambda: torch.linspace(0, 1, -2))
attempt("full int fill float", lambda: torch.full((2,), 1.5, dtype=torch.long))
attempt("eye negative", lambda: torch.eye(-1))
attempt("randn float size", lambda: torch.randn(2.5))
