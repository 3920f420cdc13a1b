# Sparse embedding gradients with the optimizers that accept them (SGD, Adagrad, SparseAdam)
# and the errors of those that do not; sparse grads clipped, scaled and summed by hand.
import torch
import torch.nn as nn


def make(sparse=True, padding_idx=None):
    e = nn.Embedding(6, 2, sparse=sparse, padding_idx=padding_idx)
    with torch.no_grad():
        e.weight.copy_(torch.sin(torch.arange(12.0) * 0.7).view(6, 2))
    return e


ids = torch.tensor([[0, 3, 3], [5, 3, 0]])
target = torch.tensor([0.5, -0.5])

for name, ctor in [("SGD", lambda p: torch.optim.SGD(p, lr=0.2)),
                   ("Adagrad", lambda p: torch.optim.Adagrad(p, lr=0.2)),
                   ("SparseAdam", lambda p: torch.optim.SparseAdam(p, lr=0.2)),
                   ("Adam", lambda p: torch.optim.Adam(p, lr=0.2)),
                   ("SGD-momentum", lambda p: torch.optim.SGD(p, lr=0.2, momentum=0.9))]:
    e = make()
    opt = ctor(e.parameters())
    try:
        for step in range(3):
            opt.zero_grad()
            loss = (e(ids).sum(1) - target).pow(2).mean()
            loss.backward()
            opt.step()
        print(name, f"{loss.item():.4f}", e.weight.detach().round(decimals=4).tolist()[3])
    except RuntimeError as err:
        print(name, type(err).__name__, str(err).splitlines()[0])

# Adagrad keeps a dense state even for sparse grads
e = make(padding_idx=0)
opt = torch.optim.Adagrad(e.parameters(), lr=0.1, initial_accumulator_value=0.1)
e(ids).sum().backward()
opt.step()
st = opt.state[e.weight]
print(st["sum"].layout, st["sum"])
print(e.weight[0])

# manual operations on a sparse grad
e = make()
e(ids).pow(2).sum().backward()
g = e.weight.grad
print(g._nnz(), g.coalesce()._nnz())
total = g.coalesce()
print(total.values().norm())
scaled = total * 0.5
print(scaled.values())
print((total + total).coalesce().values()[:2])
print(torch.sparse.sum(total).item() == total.to_dense().sum().item())
dense = total.to_dense()
print(dense)
try:
    torch.nn.utils.clip_grad_norm_(e.parameters(), 1.0)
    print("clip ok", e.weight.grad.layout)
    print(e.weight.grad.coalesce().values().norm())
except (RuntimeError, NotImplementedError) as err:
    print("clip failed:", type(err).__name__)
