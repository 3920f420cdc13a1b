# StackOverflow autograd surprises: numpy() on a tensor that requires grad, .item() on many
# elements, ambiguous booleans, in-place on leaves, backward twice, .grad None on non-leaves.
import warnings

import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = w * 2
attempt("w.numpy()", lambda: w.numpy())
attempt("y.numpy()", lambda: y.numpy())
attempt("detach().numpy()", lambda: y.detach().numpy())
attempt("w.data.numpy()", lambda: w.data.numpy())
attempt("tolist", lambda: y.tolist())
attempt("np.array(w)", lambda: __import__("numpy").array(w))
attempt("float(y)", lambda: float(y))
attempt("float(y.sum())", lambda: float(y.sum()))
attempt("y.item()", lambda: y.item())
attempt("y[0].item()", lambda: y[0].item())
attempt("y.sum().item()", lambda: y.sum().item())
attempt("int empty", lambda: torch.tensor([]).item())

# Q: "Boolean value of Tensor with more than one value is ambiguous"
attempt("if y > 0", lambda: "pos" if y > 0 else "neg")
attempt("y.any()", lambda: bool((y > 0).any()))
attempt("and", lambda: (y > 0) and (y < 5))
attempt("& fix", lambda: (y > 0) & (y < 5))
attempt("max builtin", lambda: max(y, torch.zeros(3)))
attempt("in list", lambda: torch.tensor([1, 2]) in [torch.tensor([3, 4]), torch.tensor([1, 2])])
attempt("== scalar bool", lambda: bool(torch.tensor([2.0]) == 2))
attempt("empty bool", lambda: bool(torch.tensor([])))

# Q: in-place on a leaf / on a tensor saved for backward
attempt("w += 1", lambda: w.__iadd__(1))
attempt("w[0] = 5", lambda: w.__setitem__(0, 5.0))
attempt("w.zero_()", lambda: w.zero_())
with torch.no_grad():
    w -= 0.1 * torch.ones(3)
print("after no_grad update:", w, w.requires_grad, w.grad_fn, w.is_leaf)
a = torch.tensor([0.5, 1.0], requires_grad=True)
s = a.sigmoid()
s.mul_(2)
attempt("sigmoid in-place backward", lambda: s.sum().backward())
e = a.exp()
e.add_(1)
attempt("exp add_ backward", lambda: e.sum().backward())
r = a * 1
r2 = r ** 2
r.add_(1)
attempt("pow saved input", lambda: r2.sum().backward())

# Q: "Trying to backward through the graph a second time"
x = torch.tensor([2.0, 3.0], requires_grad=True)
loss = (x ** 3).sum()
loss.backward()
attempt("second backward", lambda: loss.backward())
loss2 = (x + 3).sum()
loss2.backward()
loss2.backward()
print("linear graph twice ok, grads accumulate:", x.grad)
loss3 = (x ** 2).sum()
loss3.backward(retain_graph=True)
loss3.backward()
print("retain_graph:", x.grad)

# Q: ".grad is None" on a non-leaf, and the UserWarning it emits
h = x * 2
z = (h ** 2).sum()
z.backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("h.grad:", h.grad, h.is_leaf)
print([str(c.message)[:110] for c in caught])
h2 = x * 2
h2.retain_grad()
(h2 ** 2).sum().backward()
print("retain_grad:", h2.grad)
m = torch.tensor([1.0, 2.0], requires_grad=True).double()
m.sum().backward()
print("after .double():", m.is_leaf, m.grad)
