"""Sparse COO tensors (``torch.sparse_coo_tensor``, ``torch.sparse``): construction, coalescing,
printing, products with dense matrices and their gradients, and the errors for what is refused.

Independent truths first (dense equivalents, finite differences); then the same cases against
PyTorch where it is installed."""
import copy

import numpy as np
import pytest

import tapegrad as torch
from tapegrad.autograd import gradcheck, gradgradcheck

from same_as_torch import assert_same

INDICES = [[0, 1, 1, 0, 2], [1, 0, 1, 1, 2]]
VALUES = [1.0, 2.0, 3.0, 4.0, 5.0]


def example(lib=torch, dtype=None, **kwargs):
    """A 3x3 sparse tensor with a duplicated element ((0, 1) twice), uncoalesced."""
    values = lib.tensor(VALUES, dtype=dtype)
    return lib.sparse_coo_tensor(lib.tensor(INDICES), values, (3, 3), **kwargs)


def dense_of(indices, values, size):
    out = np.zeros(size)
    np.add.at(out, tuple(np.asarray(indices)), values)
    return out


# ------------------------------------------------------------------------ independent truths

def test_to_dense_sums_duplicates():
    s = example()
    assert s.is_sparse and s.layout is torch.sparse_coo and not s.is_coalesced()
    assert s._nnz() == 5 and s.shape == (3, 3) and s.dtype == torch.float32
    np.testing.assert_array_equal(s.to_dense().numpy(), dense_of(INDICES, VALUES, (3, 3)))
    assert not torch.ones(2).is_sparse and torch.ones(2).layout is torch.strided


def test_coalesce_sums_duplicates_and_sorts():
    c = example().coalesce()
    assert c.is_coalesced() and c.coalesce() is c
    assert c.indices().tolist() == [[0, 1, 1, 2], [1, 0, 1, 2]]
    assert c.values().tolist() == [5.0, 2.0, 3.0, 5.0]


def test_values_and_indices_refuse_uncoalesced():
    s = example()
    for name in ("values", "indices"):
        with pytest.raises(RuntimeError, match=f"Cannot get {name} on an uncoalesced tensor, "
                                               r"please call .coalesce\(\) first"):
            getattr(s, name)()
    assert s._values().tolist() == VALUES and s._indices().tolist() == INDICES


def test_repr_as_pytorch_prints_it():
    s = torch.sparse_coo_tensor(torch.tensor([[0, 1], [1, 0]]), torch.tensor([1.0, 2.0]), (2, 2))
    assert repr(s) == ("tensor(indices=tensor([[0, 1],\n"
                       "                       [1, 0]]),\n"
                       "       values=tensor([1., 2.]),\n"
                       "       size=(2, 2), nnz=2, layout=torch.sparse_coo)")
    empty = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (3, 3))
    assert repr(empty) == ("tensor(indices=tensor([], size=(2, 0)),\n"
                           "       values=tensor([], size=(0,)),\n"
                           "       size=(3, 3), nnz=0, layout=torch.sparse_coo)")


def test_confusion_matrix_counts_duplicates():
    target = torch.tensor([0, 1, 2, 2, 0, 1, 1])
    pred = torch.tensor([0, 2, 2, 2, 0, 1, 0])
    cm = torch.sparse_coo_tensor(torch.stack([target, pred]), torch.ones(7, dtype=torch.long),
                                 (3, 3)).to_dense()
    assert cm.dtype == torch.int64
    assert cm.tolist() == [[2, 0, 0], [1, 1, 1], [0, 0, 2]]


def test_legacy_constructor_and_size_inference():
    s = torch.sparse.FloatTensor(torch.tensor(INDICES), torch.tensor(VALUES), torch.Size([3, 4]))
    assert s.shape == (3, 4) and s.type() == "torch.sparse.FloatTensor"
    assert torch.sparse_coo_tensor([[0, 4]], [1, 2]).shape == (5,)
    assert torch.sparse.DoubleTensor(2, 3).dtype == torch.float64


@pytest.mark.parametrize("product", ["spmm", "sparse.mm", "matmul", "mm", "@"])
def test_sparse_dense_product_is_the_dense_product(product):
    s = example(dtype=torch.float64)
    x = torch.tensor(np.cos(np.arange(12.0)).reshape(3, 4))
    functions = {"spmm": torch.spmm, "sparse.mm": torch.sparse.mm, "matmul": torch.matmul,
                 "mm": torch.mm, "@": lambda a, b: a @ b}
    out = functions[product](s, x)
    np.testing.assert_allclose(out.numpy(), dense_of(INDICES, VALUES, (3, 3)) @ x.numpy())


def test_gradients_match_the_dense_computation():
    w = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    x = torch.tensor(np.sin(np.arange(6.0)).reshape(3, 2), requires_grad=True)
    (torch.sparse.mm(torch.sparse_coo_tensor(torch.tensor(INDICES), w, (3, 3)), x) ** 2).sum(
    ).backward()
    w2 = w.detach().clone().requires_grad_()
    x2 = x.detach().clone().requires_grad_()
    rows, cols = torch.tensor(INDICES)
    dense = torch.zeros(3, 3, dtype=torch.float64).index_put((rows, cols), w2, accumulate=True)
    ((dense @ x2) ** 2).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), w2.grad.numpy())
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy())


def _sparse_of(w):
    return torch.sparse_coo_tensor(torch.tensor(INDICES), w, (3, 3))


@pytest.mark.parametrize("name,fn", [
    ("sparse.mm", lambda w, x: torch.sparse.mm(_sparse_of(w), x)),
    ("spmm", lambda w, x: torch.spmm(_sparse_of(w), x) * x.sum()),
    ("to_dense", lambda w, x: _sparse_of(w).to_dense() @ x),
    ("coalesce", lambda w, x: _sparse_of(w).coalesce().values().sum() * x),
    ("sum dim", lambda w, x: torch.sparse.sum(_sparse_of(w), 1).to_dense() * x.sum(1)),
    ("add", lambda w, x: (_sparse_of(w) + _sparse_of(w * w).t()).to_dense() @ x),
    ("sub coalesced", lambda w, x: (_sparse_of(w).coalesce() - _sparse_of(w ** 3).coalesce()
                                    ).to_dense() @ x),
    ("to_sparse", lambda w, x: (x @ x.t()).to_sparse().to_dense() * w.sum()),
    ("softmax", lambda w, x: torch.sparse.softmax(_sparse_of(w), 1).to_dense() @ x),
    ("log_softmax", lambda w, x: torch.sparse.log_softmax(_sparse_of(w * x.sum()), 0)
     .coalesce().values()),
    ("addmm", lambda w, x: torch.sparse.addmm(x[:, :1], _sparse_of(w), x, beta=0.5, alpha=2)),
    ("scale", lambda w, x: (-(_sparse_of(w) * 3) / 2).to_dense() * x.sum()),
    ("times dense", lambda w, x: (_sparse_of(w) * (x @ x.t())).to_dense()),
])
def test_gradcheck_and_gradgradcheck(name, fn):
    w = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    x = torch.tensor(np.cos(np.arange(6.0)).reshape(3, 2), dtype=torch.float64,
                     requires_grad=True)
    assert gradcheck(fn, (w, x))
    assert gradgradcheck(fn, (w, x))


def test_node_names_and_edges():
    w = torch.tensor(VALUES, requires_grad=True)
    s = _sparse_of(w)
    assert type(s.grad_fn).__name__ == "SparseCooTensorWithDimsAndTensorsBackward0"
    assert s.requires_grad and not s.is_leaf
    x = torch.ones(3, 2, requires_grad=True)
    assert type(torch.spmm(s, x).grad_fn).__name__ == "MmBackward0"
    node = torch.sparse.mm(s, x).grad_fn
    assert type(node).__name__ == "SparseAddmmBackward0"
    assert node.next_functions[0] == (None, 0) and node.next_functions[1][0] is s.grad_fn
    assert type(s.coalesce().grad_fn).__name__ == "CoalesceBackward0"
    assert type(s.to_dense().grad_fn).__name__ == "ToDenseBackward0"
    assert type(s.t().grad_fn).__name__ == "TBackward0"


def test_second_backward_through_a_product_is_refused():
    x = torch.ones(3, 2, requires_grad=True)
    out = torch.sparse.mm(_sparse_of(torch.tensor(VALUES, requires_grad=True)), x).sum()
    out.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        out.backward()


def test_sparse_leaf_gets_a_sparse_gradient_from_sparse_mm():
    s = example(requires_grad=True)
    assert s.is_leaf and s.requires_grad
    torch.sparse.mm(s, torch.ones(3, 2)).sum().backward()
    assert s.grad.is_sparse and s.grad._values().tolist() == [2.0] * 4  # one per position
    assert s.grad._indices().tolist() == [[0, 1, 1, 2], [1, 0, 1, 2]]
    with pytest.raises(NotImplementedError, match="dense gradient"):
        torch.mm(example(requires_grad=True), torch.ones(3, 2))


def test_sum_transpose_and_arithmetic():
    c = example().coalesce()
    assert torch.sparse.sum(c).item() == 15.0
    assert torch.sparse.sum(c, dim=0).to_dense().tolist() == [2.0, 8.0, 5.0]
    assert torch.sparse.sum(c, dim=-1).is_coalesced()
    assert c.t().to_dense().tolist() == c.to_dense().t().tolist()
    assert not c.t().is_coalesced()
    assert (2 * c - c / 2).to_dense().tolist() == (c.to_dense() * 1.5).tolist()
    assert (c + c).is_coalesced() and (c + c)._nnz() == 4


def test_to_sparse_round_trip():
    dense = torch.tensor([[0.0, 2.0], [3.0, 0.0]])
    s = dense.to_sparse()
    assert s.is_coalesced() and s._nnz() == 2 and torch.equal(s.to_dense(), dense)


def test_construction_checks():
    with pytest.raises(RuntimeError, match="indices and values must have same nnz, but got nnz "
                                           "from indices: 5, nnz from values: 2"):
        torch.sparse_coo_tensor(torch.tensor(INDICES), torch.ones(2), (3, 3))
    with pytest.raises(RuntimeError, match="size is inconsistent with indices: for dim 1, size "
                                           "is 2 but found index 2"):
        torch.sparse_coo_tensor(torch.tensor(INDICES), torch.ones(5), (3, 2))


@pytest.mark.parametrize("op", [lambda s: s.exp(), lambda s: torch.exp(s), lambda s: s.view(9),
                                lambda s: torch.softmax(s, 1), lambda s: s.cumsum(0)])
def test_unsupported_operations_are_refused(op):
    with pytest.raises(NotImplementedError, match="Could not run 'aten::.*' with arguments from "
                                                  "the 'SparseCPU' backend"):
        op(example())


def test_deepcopy_and_detach():
    s = example()
    copied = copy.deepcopy(s)
    assert copied is not s and copied.to_dense().tolist() == s.to_dense().tolist()
    assert not example(requires_grad=True).detach().requires_grad


# ----------------------------------------------------------------------- against PyTorch

def _repr(s):
    return repr(s)


CASES = {
    "repr": lambda lib: _repr(example(lib)),
    "repr coalesced": lambda lib: _repr(example(lib).coalesce()),
    "repr float64": lambda lib: _repr(example(lib, dtype=lib.float64)),
    "repr requires_grad": lambda lib: _repr(example(lib, requires_grad=True)),
    "repr grad_fn": lambda lib: _repr(lib.sparse_coo_tensor(
        lib.tensor(INDICES), lib.tensor(VALUES, requires_grad=True), (3, 3)) * 2),
    "repr int": lambda lib: _repr(lib.sparse_coo_tensor(lib.tensor(INDICES), lib.tensor(
        [1, 2, 3, 4, 5]), (3, 3)).coalesce()),
    "repr hybrid": lambda lib: _repr(lib.sparse_coo_tensor([[0, 2]], lib.ones(2, 3), (4, 3))),
    "repr long": lambda lib: _repr(lib.sparse_coo_tensor(
        lib.stack([lib.arange(600) % 40, lib.arange(600) * 7 % 40]), lib.arange(600.0) / 7,
        (40, 40)).coalesce()),
    "repr sum dim": lambda lib: _repr(lib.sparse.sum(example(lib), 1)),
    "repr add": lambda lib: _repr(example(lib) + lib.sparse_coo_tensor([[2, 0], [2, 1]],
                                                                       [1.0, 1.0], (3, 3))),
    "repr sub": lambda lib: _repr(lib.sparse_coo_tensor(
        lib.tensor(INDICES), lib.tensor(VALUES, requires_grad=True), (3, 3)).coalesce()
        - example(lib).t().coalesce()),
    "repr to_sparse": lambda lib: (repr(_cube(lib).to_sparse()), repr(_cube(lib).to_sparse(1)),
                                   repr(_cube(lib).to_sparse(2))),
    "repr to_sparse grad": lambda lib: repr(_cube(lib).requires_grad_().to_sparse()),
    "t error": lambda lib: _cube(lib).to_sparse().t(),
    "to_dense dtype error": lambda lib: example(lib).to_dense(lib.float64),
    "bool mm error": lambda lib: lib.spmm(example(lib).bool(), lib.ones(3, 2, dtype=lib.bool)),
    "softmax": lambda lib: tuple(repr(f(example(lib), d)) for f in (
        lib.sparse.softmax, lib.sparse.log_softmax) for d in (0, 1, -1)),
    "softmax grads": lambda lib: _softmax_grads(lib),
    "addmm": lambda lib: lib.sparse.addmm(lib.ones(3, 2), example(lib), lib.arange(6.0).view(
        3, 2), beta=0.5, alpha=3),
    "type": lambda lib: (example(lib).type(), example(lib).double().type()),
    "flags": lambda lib: (example(lib).is_coalesced(), example(lib).t().is_coalesced(),
                          lib.sparse_coo_tensor([[1]], [1.0], (3,)).is_coalesced(),
                          example(lib).sparse_dim(), example(lib).dense_dim(), len(example(lib))),
    "spmm": lambda lib: lib.spmm(example(lib), lib.arange(6.0).view(3, 2)),
    "matmul vector": lambda lib: example(lib) @ lib.ones(3),
    "times dense": lambda lib: (example(lib) * lib.arange(9.0).view(3, 3)).to_dense(),
    "grads": lambda lib: _grads(lib),
    "leaf grad": lambda lib: _leaf_grad(lib),
    "values error": lambda lib: example(lib).values(),
    "nnz error": lambda lib: lib.sparse_coo_tensor(lib.tensor(INDICES), lib.ones(4), (3, 3)),
    "size error": lambda lib: lib.sparse_coo_tensor(lib.tensor(INDICES), lib.ones(5),
                                                    (3, 3, 2)),
    "shape error": lambda lib: lib.spmm(example(lib), lib.ones(4, 2)),
    "dtype error": lambda lib: lib.sparse.mm(example(lib), lib.ones(3, 2, dtype=lib.float64)),
    "vector error": lambda lib: lib.spmm(example(lib), lib.ones(3)),
    "add dense error": lambda lib: example(lib) + lib.ones(3, 3),
    "add size error": lambda lib: example(lib) + lib.sparse_coo_tensor([[0]], [1.0], (4,)),
    "numpy error": lambda lib: example(lib).numpy(),
    "exp error": lambda lib: str(_raised(lambda: example(lib).exp())).split(" with ")[0],
    "view error": lambda lib: str(_raised(lambda: example(lib).view(9))).split(" with ")[0],
}


def _cube(lib):
    return lib.tensor([[[0.0, 1.0], [0.0, 0.0]], [[2.0, 0.0], [3.0, 4.0]]])


def _raised(fn):
    try:
        fn()
    except NotImplementedError as error:
        return error
    return None


def _grads(lib):
    w = lib.tensor(VALUES, requires_grad=True)
    x = lib.arange(6.0).view(3, 2).requires_grad_()
    s = lib.sparse_coo_tensor(lib.tensor(INDICES), w, (3, 3))
    loss = (lib.sparse.mm(s, x) ** 2).sum() + (s.coalesce().values() ** 3).sum()
    loss = loss + (lib.spmm(s.t(), x) * x).sum() + lib.sparse.sum(s * 2, 0).to_dense().sum()
    loss.backward()
    return w.grad, x.grad


def _softmax_grads(lib):
    w = lib.tensor(VALUES, requires_grad=True)
    weights = lib.arange(4.0)
    s = lib.sparse_coo_tensor(lib.tensor(INDICES), w, (3, 3))
    loss = (lib.sparse.softmax(s, 1).values() * weights).sum()
    s = lib.sparse_coo_tensor(lib.tensor(INDICES), w, (3, 3))
    loss = loss + (lib.sparse.log_softmax(s, 0).values() * weights).sum()
    loss.backward()
    return w.grad


def _leaf_grad(lib):
    grads = []
    for loss in (lambda s: (lib.sparse.mm(s, lib.arange(6.0).view(3, 2)) ** 2).sum(),
                 lambda s: (s.coalesce().values() ** 2).sum(),
                 lambda s: (s.to_dense() * lib.arange(9.0).view(3, 3)).sum()):
        s = example(lib, requires_grad=True)
        loss(s).backward()
        grads.append(repr(s.grad))
    return tuple(grads)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name):
    real_torch = pytest.importorskip("torch")
    assert_same(CASES[name], real_torch)


def test_dense_with_sparse_gives_dense_results():
    real_torch = pytest.importorskip("torch")

    def results(lib):
        indices, values = lib.tensor([[0, 1], [1, 0]]), lib.tensor([1.0, 2.0])
        sparse = lib.sparse_coo_tensor(indices, values, (2, 2))
        dense = lib.arange(4.0).reshape(2, 2).requires_grad_()
        products = [dense @ sparse, dense + sparse, dense - sparse, lib.mm(dense, sparse),
                    lib.matmul(dense, sparse)]
        (dense @ sparse).sum().backward()
        return [p.detach().numpy() for p in products] + [dense.grad.numpy()]
    for ours, theirs in zip(results(torch), results(real_torch)):
        np.testing.assert_array_equal(ours, theirs)


def test_sparse_embedding_gradients_are_sparse_rows():
    dense = torch.nn.Embedding(5, 3, padding_idx=1)
    sparse = torch.nn.Embedding(5, 3, padding_idx=1, sparse=True)
    with torch.no_grad():
        sparse.weight.copy_(dense.weight)
    ids = torch.tensor([[0, 2], [1, 2]])
    upstream = torch.arange(12.0).reshape(2, 2, 3)
    dense(ids).backward(upstream)
    sparse(ids).backward(upstream)
    grad = sparse.weight.grad
    assert grad.is_sparse and grad.shape == (5, 3)
    assert grad._indices().tolist() == [[0, 2, 2]]  # one row per lookup, the padding row left out
    assert torch.equal(grad.to_dense(), dense.weight.grad)
    sparse(ids).backward(upstream)  # sparse + sparse stays sparse
    assert sparse.weight.grad.is_sparse
    assert torch.equal(sparse.weight.grad.to_dense(), 2 * dense.weight.grad)
    (sparse.weight * 1).sum().backward()  # a dense contribution makes the sum dense
    assert not sparse.weight.grad.is_sparse
    assert torch.equal(sparse.weight.grad, 2 * dense.weight.grad + 1)


def test_sparse_embedding_refuses_frequency_scaling():
    table = torch.nn.Embedding(4, 2, sparse=True, scale_grad_by_freq=True)
    with pytest.raises(RuntimeError, match="scale_grad_by_freq not supported with sparse"):
        table(torch.tensor([0, 0])).sum().backward()


def test_a_dense_tensor_adds_and_subtracts_a_sparse_one_in_place():
    """``p.add_(sparse_grad, alpha=-lr)``, as hand-written optimizers update embeddings."""
    g = torch.sparse_coo_tensor(torch.tensor([[1, 3]]), torch.ones(2, 2), (5, 2))
    d = torch.zeros(5, 2)
    d.add_(g)
    d.sub_(g, alpha=0.5)
    d += g
    expected = np.zeros((5, 2), np.float32)
    expected[[1, 3]] = 1.5
    np.testing.assert_array_equal(d.numpy(), expected)


SPARSE_NORMS = {  # of [[0, 3], [4, 0]]: analytic values
    "2": (lambda lib, s: lib.norm(s), 5.0),
    "1": (lambda lib, s: lib.norm(s, p=1), 7.0),
    "inf": (lambda lib, s: lib.norm(s, p=float("inf")), 4.0),
    "0": (lambda lib, s: lib.norm(s, p=0), 2.0),
}


@pytest.mark.parametrize("case", SPARSE_NORMS)
def test_torch_norm_of_a_sparse_tensor_is_its_values_norm(case):
    """``torch.norm(sparse)`` reaches the sparse tensor's norm (full reductions only)."""
    call, expected = SPARSE_NORMS[case]
    assert call(torch, torch.tensor([[0.0, 3.0], [4.0, 0.0]]).to_sparse()).item() == expected
    real = pytest.importorskip("torch")
    assert_same(lambda lib: call(lib, lib.tensor([[0.0, 3.0], [4.0, 0.0]]).to_sparse()), real)


def test_a_sparse_norm_over_some_dims_is_refused_as_in_pytorch():
    s = torch.tensor([[0.0, 3.0], [4.0, 0.0]]).to_sparse()
    with pytest.raises(RuntimeError, match="norm_sparse currently only supports full reductions"):
        torch.norm(s, dim=1)
