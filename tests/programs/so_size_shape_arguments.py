# StackOverflow: torch.Size arithmetic, passing shapes as tensors/floats/tuples to factories and
# view(), max() returning a namedtuple, repeat vs expand, and nn.Module attribute plumbing.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


x = torch.arange(6.).view(2, 3)
# Q: torch.Size is a tuple subclass
attempt("size + tuple", lambda: x.size() + (4,))
attempt("shape * 2", lambda: x.shape * 2)
attempt("shape[1:]", lambda: x.shape[1:])
attempt("numel", lambda: x.shape.numel())
attempt("== tuple", lambda: x.shape == (2, 3))
attempt("== list", lambda: x.shape == [2, 3])
attempt("Size from list", lambda: torch.Size([2, 3]))
attempt("Size from tensor", lambda: torch.Size(torch.tensor([2, 3])))
attempt("type of shape[0]", lambda: type(x.shape[0]).__name__)

# Q: shapes given as tensors / floats / mixed
attempt("view(Size)", lambda: x.view(torch.Size([3, 2])).shape)
attempt("view(tensor)", lambda: x.view(torch.tensor([3, 2])))
attempt("view(list)", lambda: x.view([3, 2]).shape)
attempt("zeros(tensor)", lambda: torch.zeros(torch.tensor([2, 3])))
attempt("zeros(*tensor.tolist())", lambda: torch.zeros(*torch.tensor([2, 3]).tolist()).shape)
attempt("zeros(2.0, 3)", lambda: torch.zeros(2.0, 3))
attempt("ones((2, 3), 4)", lambda: torch.ones((2, 3), 4))
attempt("empty(0-d tensor)", lambda: torch.empty(torch.tensor(3)).shape)
attempt("ones(-1)", lambda: torch.ones(-1))
attempt("Linear(0-d tensor, 3)", lambda: nn.Linear(torch.tensor(2), 3).weight.shape)
attempt("Linear(2.0, 3)", lambda: nn.Linear(2.0, 3))
attempt("Linear(x.shape[1], 4)", lambda: nn.Linear(x.shape[1], 4).weight.shape)

# Q: torch.max with dim returns (values, indices)
attempt("max(x, 1)[0]", lambda: torch.max(x, 1)[0] + 1)
attempt("max + 1", lambda: torch.max(x, 1) + 1)
attempt("max indices", lambda: torch.max(x, 1).indices)
attempt("max type", lambda: type(torch.max(x, 1)).__name__)
values, indices = x.min(dim=0)
print(values, indices)

# Q: repeat vs expand vs repeat_interleave
col = torch.tensor([[1], [2]])
attempt("repeat", lambda: col.repeat(1, 3))
attempt("expand -1", lambda: col.expand(-1, 3))
attempt("expand new -1", lambda: torch.tensor([1, 2]).expand(-1, 2))
attempt("repeat_interleave", lambda: torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 2])))
attempt("repeat_interleave bad", lambda: torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 2, 3])))
attempt("repeat_interleave int", lambda: torch.tensor([1, 2]).repeat_interleave(2))

# Q: backward() gradient argument types
attempt("backward(list)", lambda: torch.ones(2, requires_grad=True).mul(2).backward([1.0, 1.0]))
attempt("backward(float)", lambda: torch.ones(2, requires_grad=True).sum().backward(1.0))
attempt("backward(tensor)", lambda: torch.ones(2, requires_grad=True).mul(2).backward(torch.ones(2)))

# Q: module attribute plumbing
m = nn.Linear(2, 2)
attempt("assign tensor to param", lambda: setattr(m, "weight", torch.ones(2, 2)))
attempt("assign new Parameter", lambda: setattr(m, "bias", nn.Parameter(torch.zeros(3))) or m.bias.shape)
attempt("register_parameter dot", lambda: m.register_parameter("x.y", nn.Parameter(torch.ones(1))))
attempt("register_buffer exists", lambda: m.register_buffer("bias", torch.ones(1)))
attempt("add_module int", lambda: m.add_module("sub", 3))
attempt("Sequential[1]", lambda: nn.Sequential(nn.ReLU())[1])
attempt("Sequential 2 inputs", lambda: nn.Sequential(nn.ReLU())(torch.ones(1), torch.ones(1)))
attempt("ModuleList call", lambda: nn.ModuleList([nn.ReLU()])(torch.ones(1)))
attempt("nn.ReLU(x)", lambda: nn.ReLU(torch.ones(2)))
