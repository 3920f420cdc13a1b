# The error messages beginners meet most (and paste into search engines), caught and printed.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        fn()
        print(label, "-> no error")
    except Exception as e:  # noqa: BLE001  the message is the point
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


layer = nn.Linear(5, 2)
attempt("linear shape", lambda: layer(torch.ones(4, 3)))
attempt("linear dtype", lambda: layer(torch.ones(4, 5, dtype=torch.float64)))
attempt("matmul", lambda: torch.ones(2, 3) @ torch.ones(4, 5))
attempt("matvec", lambda: torch.ones(3, 4) @ torch.ones(5))
attempt("add shapes", lambda: torch.ones(2, 3) + torch.ones(4))
attempt("view", lambda: torch.ones(4, 6).t().view(24))
attempt("reshape", lambda: torch.ones(4, 6).reshape(5, -1))
attempt("numpy", lambda: torch.ones(2, requires_grad=True).numpy())
attempt("item", lambda: torch.ones(2).item())
attempt("bool", lambda: bool(torch.ones(2)))
attempt("int grad", lambda: torch.ones(2, dtype=torch.long).requires_grad_())
attempt("ce float target", lambda: nn.CrossEntropyLoss()(torch.ones(3, 4), torch.tensor([1.0, 0.0, 2.0])))
attempt("ce class range", lambda: nn.CrossEntropyLoss()(torch.ones(3, 4), torch.tensor([1, 0, 7])))
attempt("nll long input", lambda: nn.NLLLoss()(torch.ones(3, 4, dtype=torch.long), torch.tensor([1, 0, 2])))
attempt("mse int", lambda: nn.MSELoss()(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long)))
attempt("bce range", lambda: nn.BCELoss()(torch.tensor([1.5]), torch.tensor([1.0])))
attempt("embedding range", lambda: nn.Embedding(5, 2)(torch.tensor([5])))
attempt("embedding float", lambda: nn.Embedding(5, 2)(torch.tensor([1.0])))
attempt("conv channels", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 8, 8)))
attempt("conv rank", lambda: nn.Conv2d(1, 4, 3)(torch.ones(8, 8)))
attempt("cat dim", lambda: torch.cat([torch.ones(2), torch.ones(2)], dim=1))
attempt("dim range", lambda: torch.ones(2, 3).sum(dim=2))
attempt("index", lambda: torch.ones(2, 3)[2])
attempt("backward non-scalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward())
attempt("backward no grad", lambda: torch.ones(2).sum().backward())
leaf = torch.ones(2, requires_grad=True)
attempt("leaf in-place", lambda: leaf.add_(1))
out = (leaf * leaf).sum()
out.backward()
attempt("backward twice", lambda: out.backward())
attempt("optimizer empty", lambda: torch.optim.SGD([], lr=0.1))
attempt("optimizer lr", lambda: torch.optim.SGD(layer.parameters(), lr=-1))
attempt("load_state_dict", lambda: layer.load_state_dict({"weight": torch.ones(2, 5)}))
attempt("device", lambda: torch.ones(2).to("cuda"))
attempt("cuda tensor", lambda: torch.ones(2).cuda())
