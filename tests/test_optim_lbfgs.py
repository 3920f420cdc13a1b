"""LBFGS: closure-driven iterations equal PyTorch's, and it minimises a quadratic exactly."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn, optim


def _least_squares_run(library, steps, **options):
    """Losses and parameters after each ``step`` on a least-squares problem with a quartic penalty,
    its parameters split over two tensors (a smooth, well-conditioned problem, so rounding
    differences between the libraries are not amplified)."""
    rng = np.random.default_rng(0)
    a = library.tensor(rng.standard_normal((6, 3)))
    b = library.tensor(rng.standard_normal(6))
    w = library.nn.Parameter(library.tensor([0.5, -1.0], dtype=library.float64))
    c = library.nn.Parameter(library.tensor([2.0], dtype=library.float64))
    optimizer = library.optim.LBFGS([w, c], **options)

    def closure():
        optimizer.zero_grad()
        x = library.cat([w, c])
        loss = ((a @ x - b) ** 2).sum() + 0.1 * (x ** 4).sum()
        loss.backward()
        return loss

    history = []
    for _ in range(steps):
        loss = optimizer.step(closure)
        history.append([loss.detach().item()] + w.tolist() + c.tolist())
    return history, optimizer


@pytest.mark.parametrize("options", [{}, {"lr": 0.5, "max_iter": 5, "history_size": 3},
                                     {"max_iter": 7, "max_eval": 4},
                                     {"line_search_fn": "strong_wolfe"},
                                     {"line_search_fn": "strong_wolfe", "lr": 2.0,
                                      "max_iter": 6, "history_size": 2}])
def test_trajectory_equals_pytorchs(options):
    torch = pytest.importorskip("torch")
    ours, our_optimizer = _least_squares_run(tapegrad, 4, **options)
    theirs, their_optimizer = _least_squares_run(torch, 4, **options)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
    ours_state = our_optimizer.state_dict()["state"][0]
    theirs_state = their_optimizer.state_dict()["state"][0]
    assert ours_state["func_evals"] == theirs_state["func_evals"]
    assert ours_state["n_iter"] == theirs_state["n_iter"]


def test_minimises_a_quadratic_to_its_analytic_solution():
    a = np.array([[3.0, 1.0], [1.0, 2.0]])
    b = np.array([1.0, -1.0])
    w = nn.Parameter(tapegrad.zeros(2, dtype=tapegrad.float64))
    optimizer = optim.LBFGS([w], max_iter=50)
    a_t, b_t = tapegrad.tensor(a), tapegrad.tensor(b)

    def closure():
        optimizer.zero_grad()
        loss = 0.5 * (w @ (a_t @ w)) - (b_t * w).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    np.testing.assert_allclose(w.detach().numpy(), np.linalg.solve(a, b), atol=1e-6)
    assert w.is_leaf and w.grad_fn is None


def test_strong_wolfe_finds_the_rosenbrock_minimum():
    xy = nn.Parameter(tapegrad.tensor([-1.5, 2.0], dtype=tapegrad.float64))
    optimizer = optim.LBFGS([xy], line_search_fn="strong_wolfe", max_iter=100)

    def closure():
        optimizer.zero_grad()
        loss = (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
        loss.backward()
        return loss

    for _ in range(3):
        optimizer.step(closure)
    np.testing.assert_allclose(xy.detach().numpy(), [1.0, 1.0], atol=1e-5)


def test_unknown_line_search_is_rejected():
    w = nn.Parameter(tapegrad.ones(1))
    optimizer = optim.LBFGS([w], line_search_fn="backtracking")

    def closure():  # with a gradient: PyTorch looks at line_search_fn only once it searches
        optimizer.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        optimizer.step(closure)


def test_rejects_parameter_groups():
    p, q = nn.Parameter(tapegrad.ones(1)), nn.Parameter(tapegrad.ones(1))
    with pytest.raises(ValueError, match="doesn't support per-parameter options"):
        optim.LBFGS([{"params": [p]}, {"params": [q]}])
