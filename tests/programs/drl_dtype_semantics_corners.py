# Forum-question corners of the manipulation ops: masks that are not bool, integer inputs to
# float-only ops, 0-d tensors, tensor-valued shifts, results of unique() on tensors that require
# grad, and what type the (values, indices) results are.
import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, "->", type(e).__name__, e)


x = torch.tensor([1.5, -2.0, 3.0])
labels = torch.tensor([1, 0, 1])
show("where with a 0/1 long mask:", lambda: torch.where(labels, x, 0.))
show("where with a float mask:", lambda: torch.where(torch.tensor([1., 0., 1.]), x, x * 10))
show("where with a bool mask:", lambda: torch.where(labels.bool(), x, 0.))
show("trunc of bool:", lambda: torch.trunc(torch.tensor([True, False])))
show("frac of long:", lambda: torch.frac(torch.tensor([1, 2])))
show("logcumsumexp of long:", lambda: torch.logcumsumexp(torch.tensor([1, 2]), 0))
show("logcumsumexp of float64:", lambda: torch.logcumsumexp(torch.tensor([1., 2.], dtype=torch.float64), 0))
show("isin of two ints:", lambda: torch.isin(1, 2))
show("isin scalar element:", lambda: torch.isin(3, torch.tensor([1, 3])))

k = torch.tensor(2)
seq = torch.arange(6)
show("roll by a tensor shift:", lambda: torch.roll(seq, k))
show("roll by shift.item():", lambda: torch.roll(seq, k.item()))
show("roll method, tensor shift:", lambda: seq.roll(shifts=torch.tensor(-1)))
s = torch.tensor(5.)
show("cummax of 0-d:", lambda: torch.cummax(s, 0))
show("cummin of 0-d:", lambda: torch.cummin(s, dim=-1))
show("cumsum of 0-d:", lambda: torch.cumsum(s, 0))
show("logcumsumexp of 0-d:", lambda: torch.logcumsumexp(s, 0))
show("atleast_2d of a list:", lambda: torch.atleast_2d([torch.tensor(1), torch.tensor([2, 3])]))
show("atleast_1d of a tuple:", lambda: torch.atleast_1d((torch.tensor(1),)))
show("atleast_3d of a list:", lambda: [t.shape for t in torch.atleast_3d([torch.tensor(1.), torch.ones(2)])])

pred = torch.tensor([2., 2., 0., 1., 1.], requires_grad=True)
show("unique of a grad tensor:", lambda: torch.unique(pred))
show("unique_consecutive of a grad tensor:", lambda: torch.unique_consecutive(pred))
show("unique with counts:", lambda: pred.unique(return_counts=True))
show("unique sorted=False dtype:", lambda: torch.unique(pred.detach(), sorted=False).dtype)
uc = torch.unique_consecutive(pred)
show("unique_consecutive grad_fn:", lambda: type(uc.grad_fn).__name__ if uc.grad_fn is not None else None)
show("backward through unique_consecutive:", lambda: uc.sum().backward())

cm = torch.cummax(x, 0)
show("type of cummax result:", lambda: type(cm))
show("is tuple:", lambda: (isinstance(cm, tuple), len(cm), cm[0] is cm.values))
show("n_fields:", lambda: (cm.n_fields, cm.n_sequence_fields))
show("nanmedian type:", lambda: type(torch.nanmedian(x, 0)).__name__)
show("repr of nanmedian:", lambda: repr(torch.nanmedian(torch.tensor([[1., float("nan")]]), 1)))
show("unpack:", lambda: [t.tolist() for t in torch.cummin(x, 0)])

# numpy's take_along_axis accepts negative indices; so does torch.take_along_dim
scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.9]])
show("take_along_dim last column:", lambda: torch.take_along_dim(scores, torch.tensor([[-1], [-1]]), dim=1))
show("take_along_dim flat negative:", lambda: torch.take_along_dim(scores, torch.tensor([-1, 0])))
show("gather negative:", lambda: scores.gather(1, torch.tensor([[-1], [0]])))
show("roll tuple shifts without dims:", lambda: torch.roll(seq, (1, 2)))
show("isin on a bool tensor:", lambda: torch.isin(torch.tensor([True, False]), torch.tensor([1, 2])))
