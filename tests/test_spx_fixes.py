"""Sparse tensors as graph / recommender / scientific code uses them: in-place ops on COO tensors,
sparse * sparse and sparse @ sparse, select and indexing, sums with keepdim and over dense
dimensions, ``sparse_mask``, ``pow``, the dense tensor's sparse API, and CSR matrices.

Independent truths first (dense equivalents, finite differences in float64); then the same
cases against PyTorch where it is installed (values, or printed forms and error messages)."""
import pickle

import numpy as np
import pytest

import tapegrad as torch
from tapegrad.autograd import gradcheck

from same_as_torch import assert_same

INDICES = [[0, 1, 1, 0, 2], [1, 0, 2, 1, 2]]  # (0, 1) twice: uncoalesced
VALUES = [1.0, 2.0, 3.0, 4.0, 5.0]
DENSE = np.array([[0.0, 5.0, 0.0], [2.0, 0.0, 3.0], [0.0, 0.0, 5.0]])


def example(lib=torch, values=None, **kwargs):
    values = lib.tensor(VALUES) if values is None else values
    return lib.sparse_coo_tensor(lib.tensor(INDICES), values, (3, 3), **kwargs)


# ------------------------------------------------------------------------ in-place operations

def test_inplace_arithmetic_values_and_coalesced_marks():
    s = example().coalesce()
    kept = s.values()
    s.mul_(2)
    np.testing.assert_array_equal(s.to_dense().numpy(), 2 * DENSE)
    assert not s.is_coalesced()                   # PyTorch's mark after mul_
    np.testing.assert_array_equal(kept.numpy(), [5.0, 2.0, 3.0, 5.0])  # not written
    s = s.coalesce()
    s.div_(4)
    assert s.is_coalesced()
    s.neg_()
    s.sub_(example().coalesce(), alpha=0.5)
    np.testing.assert_allclose(s.to_dense().numpy(), -DENSE / 2 - DENSE / 2)
    s += example().coalesce()
    np.testing.assert_allclose(s.to_dense().numpy(), 0 * DENSE, atol=1e-7)
    s.zero_()
    assert s._nnz() == 0 and s.is_coalesced() and s.shape == (3, 3)


def test_inplace_bumps_the_version_and_keeps_a_leaf_a_leaf():
    s = example(requires_grad=True)
    version = s._version
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        s.mul_(2)
    with torch.no_grad():
        s.mul_(2)
    assert s.is_leaf and s.requires_grad and s._version == version + 1
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        example(values=torch.tensor([1, 2, 3, 4, 5])).mul_(0.5)
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        example().add_(torch.ones(3, 3))


def test_gradient_through_inplace_ops_on_a_non_leaf():
    w = torch.tensor(VALUES, requires_grad=True)
    s = example(values=w * 1).coalesce()
    s.mul_(3)
    s.add_(example(values=w).coalesce())
    assert type(s.grad_fn).__name__ == "AddBackward0"
    s.to_dense().sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), np.full(5, 4.0))


# ------------------------------------------------------------------ sparse-sparse operations

def test_sparse_times_sparse_is_the_elementwise_product():
    a, b = example().coalesce(), (example() * 2).t().coalesce()
    product = a * b
    assert product.is_coalesced()
    np.testing.assert_allclose(product.to_dense().numpy(), DENSE * (2 * DENSE.T))
    assert set(map(tuple, product.indices().t().tolist())) == {(1, 0), (0, 1), (2, 2)}


def test_sparse_times_sparse_gradients_by_finite_differences():
    other = example().double().coalesce()
    value = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda v: (example(values=v) * other).to_dense(), (value,))
    assert gradcheck(lambda v: (other * example(values=v)).to_dense(), (value,))


def test_sparse_matmul_sparse_matches_dense():
    a, b = example(), (example() * 0.5).t()
    product = torch.sparse.mm(a, b)
    assert product.is_sparse and product.is_coalesced()
    np.testing.assert_allclose(product.to_dense().numpy(), DENSE @ (0.5 * DENSE.T))
    np.testing.assert_allclose((a @ b).to_dense().numpy(), DENSE @ (0.5 * DENSE.T))
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied"):
        torch.mm(a, torch.sparse_coo_tensor([[0], [0]], [1.0], (2, 3)))


def test_sparse_matmul_sparse_gradients_by_finite_differences():
    v = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    u = torch.linspace(-1, 2, 5, dtype=torch.float64).requires_grad_()
    assert gradcheck(lambda a, b: torch.sparse.mm(example(values=a),
                                                  example(values=b).t()).to_dense(), (v, u))


# ------------------------------------------------------------------ select, sums, masks, pow

def test_select_and_integer_indexing_match_dense():
    s = example()
    np.testing.assert_array_equal(s[1].to_dense().numpy(), DENSE[1])
    np.testing.assert_array_equal(s.select(1, 1).to_dense().numpy(), DENSE[:, 1])
    assert s[0, 1].item() == 5.0 and s[-1][2].item() == 5.0
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        s[3]
    with pytest.raises(NotImplementedError, match="select_backward"):
        example(requires_grad=True)[1].to_dense().sum().backward()


def test_sum_keepdim_and_dense_dimensions():
    s = example()
    kept = s.sum(1, keepdim=True)
    assert kept.shape == (3, 1) and not kept.is_coalesced()
    np.testing.assert_array_equal(kept.to_dense().numpy(), DENSE.sum(1, keepdims=True))
    hybrid = torch.sparse_coo_tensor([[0, 2, 2]], torch.arange(9.0).view(3, 3), (4, 3))
    np.testing.assert_array_equal(torch.sparse.sum(hybrid, 1).to_dense().numpy(),
                                  [3.0, 0.0, 33.0, 0.0])
    assert hybrid.sum(1, keepdim=True).sparse_dim() == 2
    with pytest.raises(RuntimeError, match="expand is unsupported for Sparse tensors"):
        example(requires_grad=True).sum(0).to_dense().sum().backward()


def test_sparse_mask_reads_the_dense_tensor_at_the_pattern():
    dense = torch.arange(9.0).view(3, 3).requires_grad_()
    masked = dense.sparse_mask(example())
    assert not masked.is_coalesced() and masked._nnz() == 5
    np.testing.assert_array_equal(masked._values().numpy(), [1.0, 3.0, 5.0, 1.0, 8.0])
    masked.to_dense().sum().backward()
    np.testing.assert_array_equal(dense.grad.numpy(), [[0, 2, 0], [1, 0, 1], [0, 0, 1]])
    with pytest.raises(RuntimeError, match="operands have incompatible sizes"):
        torch.ones(2, 3).sparse_mask(example())


def test_pow_and_empty_construction():
    np.testing.assert_array_equal(example().pow(2).to_dense().numpy(), DENSE ** 2)
    with pytest.raises(RuntimeError, match="cannot raise to zeroth power"):
        example() ** 0
    empty = torch.sparse_coo_tensor(size=(2, 3))
    assert empty._nnz() == 0 and empty.shape == (2, 3) and empty.sparse_dim() == 2


def test_dense_tensors_answer_the_sparse_api():
    x = torch.ones(2, 2)
    assert x.to_dense() is x and x.sparse_dim() == 0 and x.dense_dim() == 2
    assert not x.is_sparse_csr
    with pytest.raises(RuntimeError, match="coalesce expected sparse coordinate tensor layout "
                                           "but got Strided"):
        x.coalesce()


def test_zero_preserving_functions_act_on_the_coalesced_values():
    s = example()
    np.testing.assert_allclose(torch.sqrt(s).to_dense().numpy(), np.sqrt(DENSE))
    np.testing.assert_allclose(s.tanh().to_dense().numpy(), np.tanh(DENSE), rtol=1e-6)
    assert torch.abs(-s).is_coalesced() and abs(-s).to_dense().sum().item() == DENSE.sum()
    with pytest.raises(RuntimeError, match="sqrt_ requires coalesced input"):
        example().sqrt_()
    c = example().coalesce()
    c.sqrt_()
    np.testing.assert_allclose(c.to_dense().numpy(), np.sqrt(DENSE))
    value = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda v: example(values=v).sin().to_dense(), (value,))
    assert gradcheck(lambda v: example(values=v).norm(3), (value,))


def test_cat_stack_index_select_unsqueeze_permute_match_dense():
    s, h = example(), torch.sparse_coo_tensor([[0, 2]], torch.arange(6.0).view(2, 3), (3, 3))
    np.testing.assert_array_equal(torch.cat([s, s * 2], 1).to_dense().numpy(),
                                  np.concatenate([DENSE, 2 * DENSE], 1))
    np.testing.assert_array_equal(torch.cat([h, h], 1).to_dense().numpy(),
                                  np.concatenate([h.to_dense().numpy()] * 2, 1))
    np.testing.assert_array_equal(torch.stack([s, s], 1).to_dense().numpy(),
                                  np.stack([DENSE, DENSE], 1))
    index = torch.tensor([2, 0, 2])
    np.testing.assert_array_equal(s.index_select(0, index).to_dense().numpy(), DENSE[[2, 0, 2]])
    np.testing.assert_array_equal(torch.index_select(s, 1, index).to_dense().numpy(),
                                  DENSE[:, [2, 0, 2]])
    np.testing.assert_array_equal(s.unsqueeze(1).to_dense().numpy(), DENSE[:, None])
    np.testing.assert_array_equal(s.permute(1, 0).to_dense().numpy(), DENSE.T)
    with pytest.raises(RuntimeError, match="dense tensor was found at position 1"):
        torch.cat([s, torch.ones(3, 3)])
    value = torch.tensor(VALUES, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda v: torch.cat([example(values=v), example(values=v * 2)], 1)
                     .index_select(1, index).to_dense(), (value,))


def test_copy_and_detach_in_place():
    w = torch.tensor(VALUES, requires_grad=True)
    target = torch.sparse_coo_tensor(size=(2, 2))
    target.copy_(example(values=w))
    assert target.shape == (3, 3) and type(target.grad_fn).__name__ == "CopyBackwards"
    np.testing.assert_array_equal(target.to_dense().detach().numpy(), DENSE)
    target.detach_()
    assert not target.requires_grad
    with pytest.raises(RuntimeError, match="between dense and sparse Tensors"):
        target.copy_(torch.ones(3, 3))


def test_pickling_keeps_the_parts_and_the_coalesced_mark():
    for sparse in (example(), example().coalesce(), torch.tensor(DENSE).to_sparse_csr()):
        copied = pickle.loads(pickle.dumps(sparse))
        assert copied.layout is sparse.layout and not copied.requires_grad
        np.testing.assert_array_equal(copied.to_dense().numpy(), sparse.to_dense().numpy())
        if sparse.layout is torch.sparse_coo:
            assert copied.is_coalesced() == sparse.is_coalesced()


def test_a_converted_dense_tensor_gets_the_whole_dense_gradient():
    """``torch.mm`` with ``d.to_sparse()`` gives ``d`` the gradient ``grad @ x.T`` everywhere
    (PyTorch's ToSparseBackward passes it through); ``torch.sparse.mm`` masks it."""
    x = torch.arange(6.0).view(3, 2)
    expected = np.ones((2, 2)) @ x.numpy().T
    for product in (lambda d: d.to_sparse() @ x, lambda d: torch.mm(d.to_sparse_csr(), x),
                    lambda d: (d.t().to_sparse().t() * 2) @ x / 2,
                    lambda d: (x.t() @ d.t().to_sparse()).t()):
        d = torch.tensor(DENSE[:2], dtype=torch.float32, requires_grad=True)
        product(d).sum().backward()
        np.testing.assert_allclose(d.grad.numpy(), expected)
    d = torch.tensor(DENSE[:2], dtype=torch.float32, requires_grad=True)
    torch.sparse.mm(d.to_sparse(), x).sum().backward()
    np.testing.assert_allclose(d.grad.numpy(), expected * (DENSE[:2] != 0))
    d = torch.tensor(DENSE[:2], dtype=torch.float32, requires_grad=True)
    (torch.ones(2, 3) + d.to_sparse()).sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), np.ones((2, 3)))


# ------------------------------------------------------------------------------------ CSR

def test_csr_parts_round_trips_and_products():
    dense = torch.tensor(DENSE, dtype=torch.float32)
    csr = dense.to_sparse_csr()
    assert csr.layout is torch.sparse_csr and csr.is_sparse_csr and not csr.is_sparse
    assert csr.crow_indices().tolist() == [0, 1, 3, 4]
    assert csr.col_indices().tolist() == [1, 0, 2, 2]
    assert csr.values().tolist() == [5.0, 2.0, 3.0, 5.0]
    np.testing.assert_array_equal(csr.to_dense().numpy(), DENSE)
    np.testing.assert_array_equal(csr.to_sparse_coo().to_dense().numpy(), DENSE)
    np.testing.assert_array_equal(example().to_sparse_csr().to_dense().numpy(), DENSE)
    x = torch.arange(6.0).view(3, 2)
    np.testing.assert_allclose((csr @ x).numpy(), DENSE @ np.arange(6.0).reshape(3, 2))
    np.testing.assert_allclose((csr @ csr).to_dense().numpy(), DENSE @ DENSE)
    np.testing.assert_allclose((csr + csr).to_dense().numpy(), 2 * DENSE)


def test_csr_gradients_by_finite_differences():
    x = torch.linspace(-1, 1, 6, dtype=torch.float64).view(3, 2)
    v = torch.tensor([5.0, 2.0, 3.0, 5.0], dtype=torch.float64, requires_grad=True)

    def product(values):
        csr = torch.sparse_csr_tensor([0, 1, 3, 4], [1, 0, 2, 2], values, (3, 3))
        return torch.sparse.mm(csr, x)
    assert gradcheck(product, (v,))


@pytest.mark.parametrize("crow, col, size, message", [
    ([1, 1, 3], [1, 0, 2], (2, 3), r"`crow_indices\[..., 0\] == 0` is not satisfied"),
    ([0, 1, 3], [1, 0, 2], (3, 3), "must be equal to the number of rows"),
    ([0, 1, 3], [1, 0, 5], (2, 3), "`0 <= col_indices < ncols` is not satisfied"),
    ([0, 2, 3], [1, 1, 2], (2, 3), "are sorted and distinct"),
])
def test_csr_invariants(crow, col, size, message):
    with pytest.raises(RuntimeError, match=message):
        torch.sparse_csr_tensor(crow, col, [1.0, 2.0, 3.0], size, check_invariants=True)


# -------------------------------------------------------------------------- same as PyTorch

def _inplace_story(lib):
    s = example(lib).coalesce()
    s.mul_(2)
    flags = [s.is_coalesced()]
    s = s.coalesce()
    s.div_(4)
    s.add_(lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 1]]), lib.tensor([10.0, 20.0]),
                                 (3, 3)))
    flags.append(s.is_coalesced())
    s.neg_()
    return repr(s), flags, repr(example(lib).zero_())


def _products(lib):
    uncoalesced = lib.sparse_coo_tensor(lib.tensor([[1, 1, 0, 2], [2, 2, 1, 1]]),
                                        lib.tensor([1.0, 2.0, 3.0, 4.0]), (3, 3))
    pairs = [(example(lib), uncoalesced), (uncoalesced, example(lib)),
             (example(lib).coalesce(), uncoalesced.coalesce()),
             (example(lib).coalesce(), uncoalesced)]
    return [repr(a * b) for a, b in pairs] + [repr(lib.sparse.mm(example(lib), uncoalesced))]


def _product_grads(lib):
    w = lib.tensor(VALUES, requires_grad=True)
    u = lib.tensor([1.0, -2.0, 0.5, 3.0, 1.5], requires_grad=True)
    a, b = example(lib, values=w), example(lib, values=u).t()
    loss = ((a * b).to_dense() ** 2).sum() + (lib.sparse.mm(a, b).to_dense() ** 2).sum()
    loss.backward()
    return w.grad, u.grad


def _csr_story(lib):
    dense = lib.tensor(DENSE, dtype=lib.float32)
    csr = dense.to_sparse_csr()
    rebuilt = lib.sparse_csr_tensor(csr.crow_indices(), csr.col_indices(), csr.values() * 2)
    return (repr(csr), repr(rebuilt), repr(lib.zeros(2, 3).to_sparse_csr()),
            repr(lib.eye(2, dtype=lib.float64).to_sparse(layout=lib.sparse_csr)),
            repr(csr @ lib.ones(3, 2)), repr(example(lib).to_sparse_csr()),
            repr(csr.to_sparse_coo()))


def _dense_source_grads(lib):
    grads = []
    x = lib.arange(6.0).view(3, 2)
    for product in (lambda d: d.to_sparse() @ x, lambda d: lib.sparse.mm(d.to_sparse(), x),
                    lambda d: (-d.to_sparse_csr() * 3) @ x, lambda d: x.t() - d.to_sparse(),
                    lambda d: lib.mm(x.t(), d.t().to_sparse()), lambda d: d.to_sparse() @ x[:, 0]):
        d = lib.tensor(DENSE[:2].tolist(), requires_grad=True)
        (product(d) ** 2).sum().backward()
        grads.append(d.grad)
    return grads


CASES = {
    "inplace story": _inplace_story,
    "sparse products": _products,
    "product grads": _product_grads,
    "csr story": _csr_story,
    "select": lambda lib: (repr(example(lib)[1]), repr(example(lib).coalesce().select(1, 2)),
                           repr(example(lib)[0, 1])),
    "sum keepdim": lambda lib: (repr(example(lib).sum(0, keepdim=True)),
                                repr(example(lib).sum((0, 1), keepdim=True))),
    "sparse mask": lambda lib: repr(lib.arange(9.0).view(3, 3).sparse_mask(example(lib))),
    "pow": lambda lib: repr(example(lib) ** 2),
    "empty": lambda lib: repr(lib.sparse_coo_tensor(size=(2, 3))),
    "leaf inplace": lambda lib: example(lib, requires_grad=True).zero_(),
    "dense source grads": lambda lib: _dense_source_grads(lib),
    "unary": lambda lib: [repr(getattr(lib, name)(example(lib) - 2.5)) for name in
                          ("abs", "sqrt", "sign", "square", "relu", "tanh", "sin", "floor",
                           "isnan", "expm1")],
    "reshaping": lambda lib: (repr(lib.cat([example(lib), example(lib).coalesce()], -1)),
                              repr(lib.stack([example(lib), example(lib)])),
                              repr(example(lib).index_select(0, lib.tensor([1, 1, 0]))),
                              repr(example(lib).coalesce().unsqueeze(2)),
                              repr(example(lib).coalesce().permute(1, 0)),
                              repr(lib.sparse_coo_tensor(size=(3, 3)).copy_(example(lib)))),
    "norm": lambda lib: (example(lib).norm(), example(lib).norm(1)),
    "cat size error": lambda lib: lib.cat([example(lib), lib.sparse_coo_tensor(size=(2, 4))]),
    "permute error": lambda lib: lib.sparse_coo_tensor([[0]], lib.ones(1, 2), (2, 2)).permute(1, 0),
    "to_sparse dims error": lambda lib: example(lib).to_sparse(1),
    "density error": lambda lib: example(lib) + lib.sparse_coo_tensor(
        lib.tensor([[0, 1]]), lib.ones(2, 3), (3, 3)),
    "reshape error": lambda lib: example(lib).reshape(9),
    "dense indices error": lambda lib: lib.ones(2).indices(),
    "csr invariant": lambda lib: lib.sparse_csr_tensor(
        lib.tensor([0, 1, 3]), lib.tensor([1, 0, 5]), lib.ones(3), (2, 3),
        check_invariants=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(name):
    real_torch = pytest.importorskip("torch")
    assert_same(CASES[name], real_torch)
