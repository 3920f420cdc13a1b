"""Differences found by the embedding / token-pipeline programs (emb_*): ``scale_grad_by_freq``
multiplying by the reciprocal frequency as ATen does (bit for bit), ``EmbeddingBag(sparse=True)``
giving a sparse COO gradient, and ``torch.embedding_renorm_`` (the in-place op ``max_norm``
embeddings use) as a public function with PyTorch's node and errors."""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

TABLE = np.tan(np.linspace(-1.0, 1.0, 15)).reshape(5, 3).astype(np.float32)
TEXT = [1, 2, 0, 4, 4, 0, 3]
OFFSETS = [0, 3, 3, 6]  # bag 1 is empty


def _weight(lib, dtype=None):
    return lib.tensor(TABLE, dtype=dtype or lib.float32).requires_grad_()


def _frequency_scaled_grad(lib, dtype=None):
    """Row 3 picked three times, with rows whose thirds are not exact in binary."""
    emb = lib.nn.Embedding.from_pretrained(_weight(lib, dtype).detach(), freeze=False,
                                           scale_grad_by_freq=True)
    emb(lib.tensor([3, 3, 3, 1])).pow(2).sum().backward()
    return emb.weight.grad


def _bag_grad(lib, mode, sparse, psw=None, padding_idx=0, scale=False):
    bag = lib.nn.EmbeddingBag.from_pretrained(_weight(lib).detach(), mode=mode, freeze=False,
                                              sparse=sparse, padding_idx=padding_idx,
                                              scale_grad_by_freq=scale)
    weights = None if psw is None else lib.linspace(0.5, 2.0, 7)
    bag(lib.tensor(TEXT), lib.tensor(OFFSETS), per_sample_weights=weights).pow(2).sum().backward()
    return bag.weight.grad


# ---------------------------------------------------------------- scale_grad_by_freq

def test_frequency_scaling_divides_each_rows_gradient_by_its_count():
    plain = tapegrad.nn.Embedding.from_pretrained(_weight(tapegrad).detach(), freeze=False)
    plain(tapegrad.tensor([3, 3, 3, 1])).pow(2).sum().backward()
    counts = np.array([1, 1, 1, 3, 1], np.float32)[:, None]
    np.testing.assert_allclose(_frequency_scaled_grad(tapegrad).numpy(),
                               plain.weight.grad.numpy() / counts, rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_frequency_scaling_is_bitwise_pytorchs(dtype):
    ours = _frequency_scaled_grad(tapegrad, getattr(tapegrad, dtype)).numpy()
    theirs = _frequency_scaled_grad(torch, getattr(torch, dtype)).numpy()
    np.testing.assert_array_equal(ours, theirs)


def _bag_frequency_grad(lib, mode, scale):
    """Row 4 picked four times, across two bags of three."""
    bag = lib.nn.EmbeddingBag.from_pretrained(_weight(lib).detach(), mode=mode, freeze=False,
                                              scale_grad_by_freq=scale)
    bag(lib.tensor([4, 4, 4, 1, 2, 4]), lib.tensor([0, 3])).pow(2).sum().backward()
    return bag.weight.grad


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_bag_frequency_scaling_divides_by_the_count(mode):
    counts = np.array([1, 1, 1, 1, 4], np.float32)[:, None]
    np.testing.assert_allclose(_bag_frequency_grad(tapegrad, mode, True).numpy(),
                               _bag_frequency_grad(tapegrad, mode, False).numpy() / counts,
                               rtol=1e-6)


# PyTorch 2.13's CPU kernel divides by the count of the wrong row when a row picked once sorts
# after a repeated one (pytorch/pytorch#190063, fixed upstream): compared where it is right.
@needs_torch
@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_bag_frequency_scaling_is_bitwise_pytorchs(mode):
    ours = _bag_frequency_grad(tapegrad, mode, True).numpy()
    np.testing.assert_array_equal(ours, _bag_frequency_grad(torch, mode, True).numpy())


# ---------------------------------------------------------------- EmbeddingBag(sparse=True)

@pytest.mark.parametrize("mode, psw", [("sum", None), ("mean", None), ("sum", True)])
def test_sparse_bag_gradient_densifies_to_the_dense_one(mode, psw):
    sparse = _bag_grad(tapegrad, mode, True, psw)
    assert sparse.layout == tapegrad.sparse_coo and not sparse.is_coalesced()
    assert sparse._nnz() == 5  # one per position in a bag, the padding index left out
    np.testing.assert_allclose(sparse.to_dense().numpy(),
                               _bag_grad(tapegrad, mode, False, psw).numpy(), rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("mode, psw", [("sum", None), ("mean", None), ("sum", True)])
def test_sparse_bag_gradient_as_pytorch_stores_it(mode, psw):
    ours, theirs = _bag_grad(tapegrad, mode, True, psw), _bag_grad(torch, mode, True, psw)
    np.testing.assert_array_equal(ours._indices().numpy(), theirs._indices().numpy())
    np.testing.assert_allclose(ours._values().numpy(), theirs._values().numpy(), rtol=1e-6)


@needs_torch
def test_sparse_bag_refusals_are_pytorchs():
    def max_mode(lib):
        return lib.nn.functional.embedding_bag(lib.tensor(TEXT), _weight(lib),
                                               lib.tensor(OFFSETS), mode="max", sparse=True)

    def frequency_scaled(lib):
        return _bag_grad(lib, "sum", True, scale=True)

    assert_same(max_mode, torch)
    assert_same(frequency_scaled, torch)


# ---------------------------------------------------------------- embedding_renorm_

def test_renorm_caps_the_picked_rows_norms_in_place():
    weight = tapegrad.tensor(TABLE * 3)
    version = weight._version
    assert tapegrad.embedding_renorm_(weight, tapegrad.tensor([4, 0, 4]), 1.0, 2.0) is weight
    assert weight._version == version + 1
    norms = np.linalg.norm(weight.numpy(), axis=1)
    np.testing.assert_allclose(norms[[0, 4]], 1.0, rtol=1e-6)
    np.testing.assert_array_equal(weight.numpy()[1:4], TABLE[1:4] * 3)


@needs_torch
@pytest.mark.parametrize("norm_type", [1.0, 2.0, float("inf")])
def test_renorm_values_are_pytorchs(norm_type):
    def renormed(lib):
        weight = lib.tensor(TABLE * 3)
        lib.embedding_renorm_(weight, lib.tensor([[-1, 2]], dtype=lib.int32), 1.5, norm_type)
        return weight

    assert_same(renormed, torch)


@needs_torch
@pytest.mark.parametrize("case", ["leaf", "float indices", "out of range", "backward"])
def test_renorm_errors_and_node_are_pytorchs(case):
    def run(lib):
        weight = _weight(lib)
        indices = lib.tensor([1.0] if case == "float indices" else
                             [7] if case == "out of range" else [0, 0])
        target = weight if case == "leaf" else weight * 1
        out = lib.embedding_renorm_(target, indices, 1.0, 2.0)
        assert type(out.grad_fn).__name__ == "EmbeddingRenormBackward0"
        out.sum().backward()

    assert_same(run, torch)


# ---------------------------------------------------------------- differentiating the backward

def _penalty_case(lib, padding_idx=None, scale=False):
    """A gradient penalty: the table's gradient kept in the graph, then differentiated."""
    weight = lib.tensor(TABLE, dtype=lib.float64).requires_grad_()
    ids = lib.tensor([[4, 0, 2], [1, 1, 3]])
    loss = (lib.nn.functional.embedding(ids, weight, padding_idx=padding_idx,
                                        scale_grad_by_freq=scale).sin()
            * lib.arange(3.0, dtype=lib.float64)).sum()
    (grad,) = lib.autograd.grad(loss, weight, create_graph=True)
    grad.pow(2).sum().backward()
    return type(grad.grad_fn).__name__, grad, weight.grad


@pytest.mark.parametrize("padding_idx", [None, 1])
def test_embedding_double_backward_passes_gradgradcheck(padding_idx):
    ids = tapegrad.tensor([[4, 0, 2], [1, 1, 3]])
    weight = tapegrad.tensor(TABLE, dtype=tapegrad.float64).requires_grad_()
    assert tapegrad.autograd.gradgradcheck(
        lambda w: TF.embedding(ids, w, padding_idx=padding_idx).sin(), (weight,))


def test_forward_mode_of_a_frequency_scaled_lookup_is_the_plain_lookup():
    ids = tapegrad.tensor([[4, 0, 2], [1, 1, 3]])
    weight = tapegrad.tensor(TABLE, dtype=tapegrad.float64)
    tangent = tapegrad.arange(15.0, dtype=tapegrad.float64).view(5, 3)
    _, out = tapegrad.func.jvp(lambda w: TF.embedding(ids, w, scale_grad_by_freq=True),
                               (weight,), (tangent,))
    np.testing.assert_array_equal(out.numpy(), tangent.numpy()[ids.numpy()])


# PyTorch's double backward zeroes the padding rows but does not scale by frequency (ATen's
# embedding_dense_double_backward); tapegrad follows it.
@needs_torch
@pytest.mark.parametrize("padding_idx, scale", [(None, False), (1, False), (0, True)])
def test_embedding_backward_node_and_penalty_are_pytorchs(padding_idx, scale):
    ours = _penalty_case(tapegrad, padding_idx, scale)
    theirs = _penalty_case(torch, padding_idx, scale)
    assert ours[0] == theirs[0] == "EmbeddingDenseBackwardBackward0"
    for mine, reference in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(mine.detach().numpy(), reference.detach().numpy(), rtol=1e-12)
