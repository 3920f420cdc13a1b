# More of the error messages people paste into search engines, printed in full:
# dtype and shape mismatches, views, autograd misuse, bad targets, and module plumbing.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        fn()
        print(label, "-> no error")
    except Exception as e:  # noqa: BLE001  the message is the point
        print(label, "->", type(e).__name__ + ":", str(e))


a = torch.ones(2, 3)
attempt("mm shapes", lambda: torch.mm(a, torch.ones(2, 3)))
attempt("mm dtypes", lambda: torch.mm(a, torch.ones(3, 2, dtype=torch.float64)))
attempt("matmul dtypes", lambda: a @ torch.ones(3, 2, dtype=torch.float64))
attempt("linear long", lambda: nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.long)))
attempt("mean long", lambda: torch.tensor([1, 2, 3]).mean())
attempt("requires_grad long", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("cat sizes", lambda: torch.cat([a, torch.ones(2, 4)]))
attempt("stack sizes", lambda: torch.stack([torch.ones(2), torch.ones(3)]))
attempt("view size", lambda: torch.arange(12).view(-1, 5))
attempt("view stride", lambda: a.t().view(-1))
attempt("expand", lambda: torch.ones(2, 2).expand(3, 3))
attempt("transpose dim", lambda: torch.ones(3).transpose(0, 2))
attempt("index bounds", lambda: torch.zeros(2)[5])
attempt("inplace broadcast", lambda: torch.ones(3).add_(torch.ones(2, 3)))
attempt("inplace dtype", lambda: torch.ones(3, dtype=torch.long).add_(0.5))
attempt("ragged", lambda: torch.tensor([[1, 2], [3]]))
attempt("int()", lambda: int(torch.ones(2)))
attempt("item", lambda: torch.ones(2).item())
attempt("numpy", lambda: torch.ones(2, requires_grad=True).numpy())
attempt("gather index", lambda: torch.gather(a, 1, torch.tensor([[0], [1]], dtype=torch.int32)))

# Autograd misuse
leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
attempt("leaf in-place", lambda: leaf.mul_(2))
attempt("leaf view in-place", lambda: leaf[:2].mul_(2))
attempt("implicit grad", lambda: (leaf * 2).backward())
attempt("grad shape", lambda: (leaf[:2] * 2).backward(torch.ones(3)))
other = torch.tensor(1.0, requires_grad=True)
attempt("unused input", lambda: torch.autograd.grad((leaf * 2).sum(), [leaf, other]))
print(torch.autograd.grad((leaf * 2).sum(), [leaf, other], allow_unused=True))
attempt("grad of non-grad", lambda: torch.autograd.grad(torch.ones(1).sum(), leaf))
attempt("grad wrt non-leaf unused", lambda: torch.autograd.grad((leaf * 3).sum(), leaf * 3))

# Loss function targets
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]])
attempt("ce 2d target", lambda: F.cross_entropy(logits, torch.tensor([[1], [0]])))
attempt("ce batch", lambda: F.cross_entropy(logits, torch.tensor([1, 0, 2])))
attempt("bce shapes", lambda: F.binary_cross_entropy(torch.full((2, 1), 0.5), torch.ones(2)))
attempt("bce logits shapes", lambda: F.binary_cross_entropy_with_logits(torch.zeros(2, 1), torch.ones(2)))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(F.mse_loss(torch.ones(3), torch.zeros(3, 1)))
print(len(caught), caught[0].category.__name__, str(caught[0].message))


# Module plumbing
class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


attempt("no super init", Forgot)
attempt("no forward", lambda: nn.Module()(torch.ones(1)))
attempt("bad attr", lambda: nn.Linear(2, 2).weights)
attempt("load shapes", lambda: nn.Linear(2, 2).load_state_dict(nn.Linear(3, 2).state_dict()))
attempt("unexpected key", lambda: nn.Linear(2, 2).load_state_dict({**nn.Linear(2, 2).state_dict(), "extra": torch.ones(1)}))
