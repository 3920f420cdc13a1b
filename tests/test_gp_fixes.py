"""What Gaussian-process / Bayesian-optimisation code found missing: ``torch.quasirandom``'s
SobolEngine (unscrambled points are PyTorch's exactly) and the randomized low-rank factorizations
``torch.svd_lowrank`` / ``torch.pca_lowrank`` (exact when q reaches the rank).

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); the values are also checked against independent truths: the van der Corput
sequence, Sobol's stratification, exact SVDs, and finite differences.
"""
import sys

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck
from tapegrad.quasirandom import SobolEngine

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


# ----------------------------------------------------------------------------------- SobolEngine

def sobol_session(lib, dimension, steps, dtype="float32"):
    """The points a sequence of draws / fast-forwards / resets gives, concatenated."""
    engine = lib.quasirandom.SobolEngine(dimension, scramble=False)
    drawn = []
    for step, n in steps:
        if step == "draw":
            drawn.append(engine.draw(n, dtype=getattr(lib, dtype)))
        elif step == "base2":
            drawn.append(engine.draw_base2(n, dtype=getattr(lib, dtype)))
        elif step == "skip":
            engine.fast_forward(n)
        else:
            engine.reset()
    return lib.cat(drawn), lib.tensor(engine.num_generated)


SESSIONS = [
    (2, [("draw", 8), ("draw", 5), ("skip", 3), ("draw", 7)]),
    (5, [("skip", 1), ("draw", 1), ("draw", 2), ("base2", 2), ("base2", 3)]),
    (3, [("skip", 10), ("draw", 4), ("reset", 0), ("draw", 3)]),
    (21, [("base2", 6), ("draw", 1)]),
    (1111, [("draw", 1), ("draw", 40)]),
]


@pytest.mark.parametrize("dimension, steps", SESSIONS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unscrambled_sobol_points_are_pytorchs(torch, dimension, steps, dtype):
    ours, num = sobol_session(tapegrad, dimension, steps, dtype)
    theirs, their_num = sobol_session(torch, dimension, steps, dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert num.item() == their_num.item() and ours.dtype.__repr__() == repr(theirs.dtype)


def test_direction_numbers_are_pytorchs(torch):
    state = torch.zeros(1111, 30, dtype=torch.long)
    torch._sobol_engine_initialize_state_(state, 1111)
    np.testing.assert_array_equal(SobolEngine(1111).sobolstate.numpy(), state.numpy())


def test_first_dimension_is_van_der_corput_and_points_stratify():
    points = SobolEngine(6).draw(64, dtype=tapegrad.float64).numpy()
    van_der_corput = [int(format(k ^ (k >> 1), "06b")[::-1], 2) / 64 for k in range(64)]
    np.testing.assert_array_equal(points[:, 0], van_der_corput)  # Gray-code order
    for d in range(6):  # every elementary interval of length 1/64 holds one point
        assert sorted((points[:, d] * 64).astype(int)) == list(range(64))
    for a, b in [(0, 1), (2, 5), (3, 4)]:  # 2-d projections: one point per 8x8 cell
        cells = (points[:, a] * 8).astype(int) * 8 + (points[:, b] * 8).astype(int)
        assert sorted(cells) == list(range(64))


def test_fast_forward_equals_drawing():
    skipped = SobolEngine(4).fast_forward(13).draw(5)
    engine = SobolEngine(4)
    engine.draw(13)
    np.testing.assert_array_equal(skipped.numpy(), engine.draw(5).numpy())


SOBOL_ERRORS = [
    lambda lib: lib.quasirandom.SobolEngine(0),
    lambda lib: lib.quasirandom.SobolEngine(21202),
    lambda lib: lib.quasirandom.SobolEngine(3).draw(0),
    lambda lib: lib.quasirandom.SobolEngine(3).draw(2, dtype=lib.float16),
    lambda lib: lib.quasirandom.SobolEngine(3).draw(1, dtype=lib.int64),
    lambda lib: lib.quasirandom.SobolEngine(3).fast_forward(1).draw(0),
    lambda lib: lib.quasirandom.SobolEngine(3).fast_forward(3).draw_base2(1),
    lambda lib: lib.quasirandom.SobolEngine(2).draw(3, out=lib.empty(1)),
    lambda lib: repr(lib.quasirandom.SobolEngine(2, scramble=True, seed=4)),
    lambda lib: repr(lib.quasirandom.SobolEngine(7)),
]


@pytest.mark.parametrize("case", SOBOL_ERRORS)
def test_sobol_checks_and_edges_as_pytorch(torch, case):
    assert_same(case, torch)


def test_scrambled_points_are_seeded_and_still_stratified():
    a = SobolEngine(3, scramble=True, seed=11).draw(16, dtype=tapegrad.float64).numpy()
    b = SobolEngine(3, scramble=True, seed=11).draw(16, dtype=tapegrad.float64).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, SobolEngine(3).draw(16, dtype=tapegrad.float64).numpy())
    for d in range(3):
        assert sorted((a[:, d] * 16).astype(int)) == list(range(16))


# ---------------------------------------------------------------- svd_lowrank and pca_lowrank

def rank3(lib, rows=12, columns=5):
    t = lib.linspace(0, 1, rows, dtype=lib.float64)
    basis = lib.stack([lib.sin(3 * t), lib.cos(2 * t), t ** 2], 1)
    mix = (lib.arange(3 * columns, dtype=lib.float64).reshape(3, columns) ** 2 * 0.37).cos()
    return basis @ mix


LOWRANK_CASES = [
    lambda lib: lib.svd_lowrank(rank3(lib), q=3)[1],
    lambda lib: lib.svd_lowrank(rank3(lib), q=4, niter=0)[1][:3],
    lambda lib: lib.svd_lowrank(rank3(lib).mT, q=3)[1],  # wide: factored through the transpose
    lambda lib: lib.svd_lowrank(lib.stack([rank3(lib), -2 * rank3(lib)]), q=3)[1],
    lambda lib: lib.svd_lowrank(rank3(lib), q=3, M=rank3(lib)[0])[1][:2],
    lambda lib: lib.pca_lowrank(rank3(lib), q=3)[1],
    lambda lib: lib.pca_lowrank(rank3(lib), center=False)[1][:3],
    lambda lib: lib.pca_lowrank(rank3(lib).to_sparse(), q=3)[1],
    lambda lib: lib.svd_lowrank(rank3(lib).to_sparse(), q=3)[1],
    lambda lib: [tuple(x.shape) for x in lib.svd_lowrank(rank3(lib).float())] + [
        str(lib.svd_lowrank(rank3(lib).float())[0].dtype)],
    lambda lib: lib.pca_lowrank(rank3(lib), q=6),
    lambda lib: lib.pca_lowrank(rank3(lib), niter=-1),
    lambda lib: lib.svd_lowrank(lib.arange(6).reshape(2, 3), q=2),
]


@pytest.mark.parametrize("case", LOWRANK_CASES)
def test_lowrank_rank_determined_results_as_pytorch(torch, case):
    assert_same(case, torch)


def test_lowrank_factors_reconstruct_and_span_the_exact_subspaces():
    A = rank3(tapegrad)
    U, S, V = tapegrad.svd_lowrank(A, q=3)
    np.testing.assert_allclose((U @ tapegrad.diag(S) @ V.mT).numpy(), A.numpy(), atol=1e-10)
    U_exact, S_exact, Vh_exact = np.linalg.svd(A.numpy(), full_matrices=False)
    np.testing.assert_allclose(S.numpy(), S_exact[:3], rtol=1e-10)
    np.testing.assert_allclose(np.abs(U.numpy().T @ U_exact[:, :3]), np.eye(3), atol=1e-8)
    centered = A.numpy() - A.numpy().mean(0)
    _, S_pca, V_pca = tapegrad.pca_lowrank(A, q=3)
    np.testing.assert_allclose(S_pca.numpy(), np.linalg.svd(centered, compute_uv=False)[:3])
    np.testing.assert_allclose(np.abs(V_pca.numpy().T @ np.linalg.svd(centered)[2][:3].T),
                               np.eye(3), atol=1e-8)


def test_lowrank_singular_values_are_differentiable():
    tapegrad.manual_seed(0)
    A = rank3(tapegrad, rows=6, columns=4) + 0.1 * tapegrad.eye(6, 4, dtype=tapegrad.float64)
    A.requires_grad_(True)
    # q = min(m, n): the basis spans everything, so S is the exact (smooth) singular values
    assert gradcheck(lambda a: tapegrad.svd_lowrank(a, q=4)[1], (A,))
    S = tapegrad.svd_lowrank(A, q=4)[1]
    S.sum().backward()
    U, _, Vh = np.linalg.svd(A.detach().numpy(), full_matrices=False)
    np.testing.assert_allclose(A.grad.numpy(), U @ Vh, atol=1e-8)  # d sum(S) / dA = U V^T


# ------------------------------------------------- half precision and dtype checks of linalg

def spd(lib, dtype):
    return (2 * lib.eye(3) + 0.1).to(getattr(lib, dtype))


DTYPE_CASES = [
    lambda lib: lib.linalg.cholesky(spd(lib, "half")),
    lambda lib: lib.linalg.cholesky_ex(spd(lib, "half")),
    lambda lib: lib.cholesky(spd(lib, "half")),
    lambda lib: lib.linalg.inv(spd(lib, "half")),
    lambda lib: lib.linalg.inv_ex(spd(lib, "half")),
    lambda lib: lib.linalg.inv_ex(lib.eye(2, dtype=lib.int64)),
    lambda lib: lib.linalg.matrix_power(spd(lib, "half"), -1),
    lambda lib: lib.linalg.cond(spd(lib, "half"), p=1),
    lambda lib: lib.linalg.det(spd(lib, "half")),
    lambda lib: lib.linalg.slogdet(spd(lib, "half")),
    lambda lib: lib.logdet(spd(lib, "half")),
    lambda lib: lib.linalg.solve(spd(lib, "half"), spd(lib, "half")),
    lambda lib: lib.linalg.solve(spd(lib, "half"), lib.ones(4, 1).half()),  # shapes first
    lambda lib: lib.linalg.solve_ex(spd(lib, "half"), spd(lib, "half")),
    lambda lib: lib.linalg.solve_ex(lib.eye(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64)),
    lambda lib: lib.linalg.eigh(spd(lib, "half")),
    lambda lib: lib.linalg.eigvalsh(spd(lib, "half")),
    lambda lib: lib.linalg.lu_factor(spd(lib, "half")),
    lambda lib: lib.linalg.lu(spd(lib, "half")),
    lambda lib: lib.linalg.lu_solve(spd(lib, "half"), lib.ones(3, dtype=lib.int32),
                                    spd(lib, "half")),
    lambda lib: lib.linalg.lu_solve(lib.eye(2, dtype=lib.int64), lib.ones(2, dtype=lib.int32),
                                    lib.eye(2, dtype=lib.int64)),
    lambda lib: lib.linalg.householder_product(spd(lib, "half"), lib.ones(2).half()),
    lambda lib: lib.linalg.householder_product(spd(lib, "float"), lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.cholesky_inverse(spd(lib, "half")),
    lambda lib: lib.linalg.ldl_factor(spd(lib, "half")),
    lambda lib: lib.linalg.solve_triangular(spd(lib, "half"), spd(lib, "half"), upper=True),
]


@pytest.mark.parametrize("case", DTYPE_CASES)
def test_linalg_refuses_half_and_integers_as_pytorch(torch, case):
    assert_same(case, torch)


def test_matrix_exp_in_half_is_computed_in_float32():
    A = tapegrad.tensor([[0.1, 0.2], [0.3, 0.1]])
    half = tapegrad.linalg.matrix_exp(A.half())
    assert half.dtype == tapegrad.float16
    in_float32 = tapegrad.linalg.matrix_exp(A.half().float()).half()
    np.testing.assert_array_equal(half.numpy(), in_float32.numpy())


# ------------------------------------------------------------------------------------- LBFGS

def lbfgs_complex_fit(lib, line_search):
    """A complex parameter fitted as PyTorch fits it: as its real and imaginary parts."""
    z = lib.tensor([1.0 + 1.0j, 2.0 - 0.5j], dtype=lib.complex128, requires_grad=True)
    target = lib.tensor([0.5 - 1.0j, -1.0 + 0.25j], dtype=lib.complex128)
    optimizer = lib.optim.LBFGS([z], max_iter=4, line_search_fn=line_search)

    def closure():
        optimizer.zero_grad()
        loss = ((z - target).abs() ** 4).sum()
        loss.backward()
        return loss

    losses = [optimizer.step(closure) for _ in range(3)]
    return lib.stack(losses), lib.view_as_real(z), lib.tensor(optimizer.state[z]["func_evals"])


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs_optimizes_complex_parameters_as_pytorch(torch, line_search):
    assert_same(lambda lib: lbfgs_complex_fit(lib, line_search), torch)


def test_lbfgs_complex_parameter_reaches_the_minimum():
    _, z, _ = lbfgs_complex_fit(tapegrad, "strong_wolfe")
    np.testing.assert_allclose(z.detach().numpy(), [[0.5, -1.0], [-1.0, 0.25]], atol=0.15)


def lbfgs_with_number_closure(lib):
    """A closure may return a Python number (the loss's float) instead of a tensor."""
    w = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    optimizer = lib.optim.LBFGS([w], max_iter=5, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        loss = ((w - 3.0) ** 2).sum()
        loss.backward()
        return loss.item()

    first = optimizer.step(closure)
    return lib.tensor(first), w


def test_lbfgs_closure_may_return_a_number(torch):
    assert_same(lbfgs_with_number_closure, torch)
    first, w = lbfgs_with_number_closure(tapegrad)
    assert first.item() == 5.0 and np.allclose(w.detach().numpy(), [3.0, 3.0])


# ---------------------------------------------------- deprecated torch.cholesky, triangular_solve

def spd_grad(lib):
    return lib.tensor([[4.0, 2.0, 0.4], [2.0, 3.0, 0.5], [0.4, 0.5, 2.0]], dtype=lib.float64,
                      requires_grad=True)


LEGACY_CASES = [
    lambda lib: lib.cholesky(spd_grad(lib), True),  # upper also positional
    lambda lib: spd_grad(lib).cholesky(True).grad_fn.name(),
    lambda lib: lib.cholesky(spd_grad(lib)).grad_fn.name(),
    lambda lib: lib.autograd.grad(lib.cholesky(A := spd_grad(lib), upper=True).pow(2).sum(), A),
    lambda lib: lib.cholesky(-spd_grad(lib).detach()),
    lambda lib: lib.cholesky(lib.stack([lib.eye(2), -lib.eye(2)])),
    lambda lib: lib.cholesky(lib.ones(2, 3)),
    lambda lib: lib.cholesky(lib.ones(2)),
    lambda lib: lib.cholesky(lib.eye(2, dtype=lib.int64)),
    lambda lib: lib.cholesky(spd_grad(lib).detach(), out=lib.empty(0, dtype=lib.float64)),
    lambda lib: lib.triangular_solve(lib.ones(3, 1, dtype=lib.float64),
                                     lib.linalg.cholesky(spd_grad(lib))).solution.grad_fn.name(),
]


@pytest.mark.parametrize("case", LEGACY_CASES)
def test_deprecated_cholesky_and_triangular_solve_as_pytorch(torch, case):
    assert_same(case, torch)


def test_deprecated_cholesky_warns_and_differentiates_as_linalgs(monkeypatch):
    monkeypatch.setattr(sys.modules["tapegrad.tensor"], "_warned", set())  # warned once a process
    with pytest.warns(UserWarning, match="torch.cholesky is deprecated"):
        tapegrad.cholesky(tapegrad.eye(2))
    assert gradcheck(lambda a: tapegrad.cholesky(a @ a.mT + tapegrad.eye(3, dtype=a.dtype), True),
                     (spd_grad(tapegrad),))


# -------------------------------------------------------------------------- linalg out=

def spd32(lib):
    return lib.tensor([[4.0, 2.0, 0.4], [2.0, 3.0, 0.5], [0.4, 0.5, 2.0]])


OUT_CALLS = {
    "cholesky": (lambda lib, A, **out: lib.linalg.cholesky(A, **out), 1),
    "cholesky_ex": (lambda lib, A, **out: lib.linalg.cholesky_ex(A, **out), 2),
    "inv_ex": (lambda lib, A, **out: lib.linalg.inv_ex(A, **out), 2),
    "solve": (lambda lib, A, **out: lib.linalg.solve(A, lib.ones(3, 2), **out), 1),
    "solve_triangular": (lambda lib, A, **out: lib.linalg.solve_triangular(
        A, lib.ones(3, 2), upper=True, **out), 1),
    "slogdet": (lambda lib, A, **out: lib.linalg.slogdet(A, **out), 2),
    "eigh": (lambda lib, A, **out: lib.linalg.eigh(A, **out), 2),
    "eigvalsh": (lambda lib, A, **out: lib.linalg.eigvalsh(A, **out), 1),
    "det": (lambda lib, A, **out: lib.linalg.det(A, **out), 1),
}


def out_tensors(lib, name, n, dtype="float32"):
    first = lib.empty(0, dtype=getattr(lib, dtype))
    if n == 1:
        return first
    return first, lib.empty(0, dtype=lib.int32 if name.endswith("_ex") else first.dtype)


def out_case(name, kind):
    call, n = OUT_CALLS[name]

    def case(lib):
        A = spd32(lib)
        if kind == "written":
            out = out_tensors(lib, name, n)
            result = call(lib, A, out=out)
            first = result if n == 1 else result[0]
            return result, type(result).__name__, first is (out if n == 1 else out[0])
        if kind == "wrong dtype":
            return call(lib, A, out=out_tensors(lib, name, n, "float64"))
        if kind == "requires grad":
            return call(lib, A.requires_grad_(), out=out_tensors(lib, name, n))
        return call(lib, A, out=(lib.empty(0),) if n == 1 else lib.empty(0))  # wrong kind
    return case


@pytest.mark.parametrize("kind", ["written", "wrong dtype", "requires grad", "wrong kind"])
@pytest.mark.parametrize("name", list(OUT_CALLS))
def test_linalg_out_argument_as_pytorch(torch, name, kind):
    assert_same(out_case(name, kind), torch)


def test_linalg_out_is_resized_and_filled():
    out = tapegrad.empty(0)
    result = tapegrad.linalg.cholesky(spd32(tapegrad), out=out)
    assert result is out and out.shape == (3, 3)
    np.testing.assert_allclose(out.numpy(), np.linalg.cholesky(spd32(tapegrad).numpy()), rtol=1e-6)
