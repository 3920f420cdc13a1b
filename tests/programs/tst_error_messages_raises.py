# pytest.raises-style tests of a small layer library: wrong shapes / dtypes must raise with
# PyTorch's messages; the test helper matches a regex against the message (like match=...).
import re
import torch
import torch.nn as nn
import torch.nn.functional as F


class raises:
    def __init__(self, exc, match=None):
        self.exc, self.match = exc, match

    def __enter__(self):
        return self

    def __exit__(self, etype, value, tb):
        if etype is None:
            print(f"  FAIL: DID NOT RAISE {self.exc.__name__}")
            return False
        if not issubclass(etype, self.exc):
            print(f"  FAIL: raised {etype.__name__} instead of {self.exc.__name__}: {value}")
            return True
        ok = self.match is None or re.search(self.match, str(value)) is not None
        print(f"  {etype.__name__}{'' if ok else ' (message did not match)'}: {value}")
        return True


def test_linear_wrong_in_features():
    layer = nn.Linear(4, 2)
    with raises(RuntimeError, match="shapes cannot be multiplied"):
        layer(torch.ones(3, 5))


def test_matmul_mismatch():
    with raises(RuntimeError, match="size mismatch|shapes cannot be multiplied|must match"):
        torch.ones(2, 3) @ torch.ones(4, 2)
    with raises(RuntimeError):
        torch.mm(torch.ones(2, 3), torch.ones(3))
    with raises(RuntimeError):
        torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 5))


def test_dtype_mismatches():
    with raises(RuntimeError, match="dtype"):
        torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
    with raises(RuntimeError):
        F.cross_entropy(torch.ones(3, 4), torch.tensor([0.0, 1.0, 2.0]))
    with raises(RuntimeError):
        F.embedding(torch.tensor([0.5]), torch.ones(3, 2))
    with raises(RuntimeError, match="Long"):
        F.nll_loss(torch.ones(2, 3), torch.tensor([1, 2], dtype=torch.int32))


def test_view_and_reshape():
    x = torch.arange(12)
    with raises(RuntimeError, match="invalid for input of size"):
        x.view(5, -1)
    with raises(RuntimeError, match="only one dimension can be inferred"):
        x.view(-1, -1)
    with raises(RuntimeError, match="view size is not compatible"):
        x.reshape(3, 4).t().view(12)


def test_cat_stack():
    with raises(RuntimeError, match="Sizes of tensors must match"):
        torch.cat([torch.ones(2, 3), torch.ones(2, 4)], dim=0)
    with raises(RuntimeError, match="stack expects each tensor to be equal size"):
        torch.stack([torch.ones(2), torch.ones(3)])
    with raises(IndexError, match="Dimension out of range"):
        torch.cat([torch.ones(2)], dim=2)
    with raises(ValueError):
        torch.cat([])


def test_indexing():
    x = torch.arange(6).reshape(2, 3)
    with raises(IndexError, match="out of bounds"):
        x[2]
    with raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with raises(RuntimeError):
        x.gather(1, torch.tensor([[0], [3]]))


def test_conv_shapes():
    conv = nn.Conv2d(3, 8, 3)
    with raises(RuntimeError, match="expected input"):
        conv(torch.ones(1, 4, 8, 8))
    with raises(RuntimeError):
        conv(torch.ones(1, 3, 2, 2))


def test_broadcast():
    with raises(RuntimeError, match="must match the size"):
        torch.ones(2, 3) + torch.ones(4)
    with raises(RuntimeError, match="expanded size"):
        torch.ones(3).expand(2, 4)


def test_grad_errors():
    x = torch.ones(3, requires_grad=True)
    with raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    with raises(RuntimeError, match="does not require grad"):
        torch.ones(2).sum().backward()
    with raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.add_(1)
    with raises(RuntimeError, match="only Tensors of floating point"):
        torch.ones(2, dtype=torch.long).requires_grad_()


def test_no_raise_is_reported():
    with raises(ValueError):
        torch.ones(2) + 1


for name, fn in list(globals().items()):
    if name.startswith("test_"):
        print(name)
        fn()
