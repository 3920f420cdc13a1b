"""Complex tensors: dtypes and promotion, printing, the parts and views, refusals, and gradients
by PyTorch's convention (``z.grad = dL/dx + i dL/dy`` for a real loss ``L``), checked against
central finite differences and, where it is installed, against PyTorch."""
import numpy as np
import pytest

import tapegrad



@pytest.fixture
def torch():
    return pytest.importorskip("torch")


rng = np.random.default_rng(7)
Z = rng.standard_normal(5) + 1j * rng.standard_normal(5)
W = rng.standard_normal(5) + 1j * rng.standard_normal(5)
X = rng.standard_normal(5)
M = rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5))

# real losses of complex z, w and real x: holomorphic ops, real <-> complex ops, views
LOSSES = {
    "mul_div": lambda L, z, w, x: (z * w / (z + 3)).abs().sum(),
    "real_times_complex": lambda L, z, w, x: ((z * x).real + (x - w).imag * 2).sum(),
    "exp_log_sqrt": lambda L, z, w, x: (z.exp().real + z.log().imag + z.sqrt().abs()).sum(),
    "trig": lambda L, z, w, x: (z.sin() * z.cos() + z.tanh()).abs().sum(),
    "sigmoid_pow": lambda L, z, w, x: (L.sigmoid(z) + z ** 3 + 1 / w).abs().sum(),
    "conj_angle_sgn": lambda L, z, w, x: (z.conj() * w).imag.sum() + z.angle().sum()
    + (w.sgn() * z).real.sum(),
    "matmul": lambda L, z, w, x: (L.from_numpy(M.copy()) @ z + w[:, None] @ z[None, :2]
                                  .mul(1j)[:, :1].squeeze(1)).abs().sum(),
    "complex_polar": lambda L, z, w, x: (L.complex(x, x * x) * z + L.polar(x.abs() + 1, x)
                                         * w).abs().sum(),
    "view_as_real": lambda L, z, w, x: (L.view_as_real(z) ** 2 * L.arange(10.).double()
                                        .reshape(5, 2)).sum()
    + L.view_as_complex(L.stack([x, x.sin()], -1)).mul(w).abs().sum(),
    "reductions_shapes": lambda L, z, w, x: (z.sum() * w.mean()).abs() + z.var()
    + L.cat([z[1:], w[:2]]).reshape(2, 3).T.cumsum(0).abs().sum() + w.prod().abs(),
    "casts_where": lambda L, z, w, x: (x.to(L.complex128) * z).abs().sum()
    + L.where(x > 0, z, w).abs().sum(),
    "squared_magnitude": lambda L, z, w, x: (z * z.conj()).real.sum(),
}


def _run(lib, loss):
    z, w = (lib.tensor(v.copy(), requires_grad=True) for v in (Z, W))
    x = lib.tensor(X.copy(), requires_grad=True)
    value = loss(lib, z, w, x)
    value.backward()
    return value.item(), [np.zeros_like(t.detach().numpy()) if t.grad is None
                          else t.grad.resolve_conj().numpy() for t in (z, w, x)]


def _finite_differences(loss, h=1e-6):
    """dL/d(real part) + i dL/d(imaginary part) for each complex input, dL/dx for x."""
    def value(z, w, x):
        with tapegrad.no_grad():
            return loss(tapegrad, *(tapegrad.tensor(v) for v in (z, w, x))).item()

    args = [Z.copy(), W.copy(), X.copy()]
    grads = []
    for position, arg in enumerate(args):
        grad = np.zeros_like(arg)
        for i in range(arg.size):
            for step in ((1, 1j) if arg.dtype.kind == "c" else (1,)):
                plus, minus = ([a.copy() for a in args] for _ in range(2))
                plus[position][i] += h * step
                minus[position][i] -= h * step
                grad[i] += step * (value(*plus) - value(*minus)) / (2 * h)
        grads.append(grad)
    return grads


@pytest.mark.parametrize("name", LOSSES)
def test_gradients_are_finite_differences_by_the_conjugate_convention(name):
    _, grads = _run(tapegrad, LOSSES[name])
    for ours, expected in zip(grads, _finite_differences(LOSSES[name])):
        np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", LOSSES)
def test_gradients_match_pytorch(name, torch):
    ours, theirs = _run(tapegrad, LOSSES[name]), _run(torch, LOSSES[name])
    assert ours[0] == pytest.approx(theirs[0])
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_second_derivatives_through_complex_numbers(torch):
    def hessian_diagonal(lib):
        x = lib.tensor(X.copy(), requires_grad=True)
        y = (lib.exp(1j * x) * lib.tensor(W.copy())).abs().pow(2).sum() + (x * 1j).exp().real.sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)[0].numpy()
    np.testing.assert_allclose(hessian_diagonal(tapegrad), hessian_diagonal(torch), atol=1e-10)


def test_promotion_matches_pytorch(torch):
    def dtypes_of(lib):
        f64, f32, i64 = (lib.ones(2, dtype=d) for d in (lib.float64, lib.float32, lib.int64))
        c64 = lib.ones(2, dtype=lib.complex64)
        return [str((f64 * 1j).dtype), str((f32 * 1j).dtype), str((i64 * 1j).dtype),
                str((f64 + lib.tensor(1j)).dtype), str((f32 * lib.tensor(1j, dtype=lib.cdouble))
                                                       .dtype),
                str((c64 * lib.tensor(2.0, dtype=lib.float64)).dtype), str((c64 * f64).dtype),
                str(lib.promote_types(lib.int64, lib.complex64)),
                str(lib.tensor([1, 2.5, 1j]).dtype), str((c64 / 2).dtype), str(c64.abs().dtype)]
    assert dtypes_of(tapegrad) == dtypes_of(torch)


def test_printing_matches_pytorch(torch):
    def reprs(lib):
        z = lib.tensor([1 + 2j, 3.5 - 4j, -0.25j])
        return [repr(z), repr(lib.tensor([[1e-5 + 2j, 3.5e5 - 4j]])), repr(lib.tensor(1j)),
                repr(lib.zeros(2, dtype=lib.cdouble)), repr(lib.ones(2, 2, dtype=lib.cfloat)),
                repr(z.clone().requires_grad_() * 2), repr(lib.tensor([1 + 1j]).abs()),
                str(lib.arange(30.).reshape(3, 10) * (1 - 1j)),
                repr(lib.tensor([float("nan") + 1j, -0.0 - 0j])), repr(lib.tensor([], dtype=lib.cfloat))]
    assert reprs(tapegrad) == reprs(torch)


def test_parts_are_views_that_write_through():
    z = tapegrad.tensor([1 + 2j, 3 - 4j])
    z.real.mul_(10)
    z.imag[1] = 0.5
    assert z.tolist() == [10 + 2j, 30 + 0.5j]
    parts = tapegrad.view_as_real(z)
    parts[0, 1] = -1
    assert z.tolist() == [10 - 1j, 30 + 0.5j] and parts.shape == (2, 2)
    assert z.real.stride() == (2,) and z.real.data_ptr() == z.data_ptr()
    back = tapegrad.view_as_complex(parts)
    assert back.data_ptr() == z.data_ptr() and back.tolist() == z.tolist()


def test_random_complex_numbers_have_pytorchs_spread():
    tapegrad.manual_seed(0)
    z = tapegrad.randn(200_000, dtype=tapegrad.cfloat)
    assert z.dtype is tapegrad.complex64
    assert z.real.var().item() == pytest.approx(0.5, rel=0.02)
    assert z.imag.var().item() == pytest.approx(0.5, rel=0.02)
    u = tapegrad.rand(1000, dtype=tapegrad.cdouble)
    assert 0 <= u.real.min().item() and u.imag.max().item() < 1


REFUSED = {
    "lt": lambda L, z: z < 0, "ge": lambda L, z: z >= z, "max": lambda L, z: z.max(),
    "max_dim": lambda L, z: z.max(0), "amin": lambda L, z: z.amin(),
    "argmax": lambda L, z: z.argmax(), "clamp": lambda L, z: z.clamp(0, 1),
    "relu": lambda L, z: z.relu(), "sort": lambda L, z: z.sort(),
    "topk": lambda L, z: z.topk(1), "sign": lambda L, z: z.sign(),
    "floor": lambda L, z: z.floor(), "maximum": lambda L, z: z.maximum(z),
    "softmax": lambda L, z: z.softmax(0), "imag_of_real": lambda L, z: z.real.imag,
    "backward": lambda L, z: z.sum().backward(),
    "complex_of_two_dtypes": lambda L, z: L.complex(z.real, z.real.double()),
    "complex_of_integers": lambda L, z: L.complex(z.real.long(), z.real.long()),
    "view_as_complex_shape": lambda L, z: L.view_as_complex(z.real),
    "view_as_real_of_real": lambda L, z: L.view_as_real(z.real),
    "fill_float_with_complex": lambda L, z: L.zeros(2).fill_(1j),
}


@pytest.mark.parametrize("name", REFUSED)
def test_operations_on_real_numbers_refuse_complex_ones_as_pytorch(name, torch):
    def message(lib):
        z = lib.tensor([1 + 1j, 2 - 1j], requires_grad=True)
        with pytest.raises(Exception) as caught:
            REFUSED[name](lib, z)
        return type(caught.value).__name__, str(caught.value)
    assert message(tapegrad) == message(torch)


def test_a_complex_gradient_descends():
    """A complex parameter fitted by plain gradient descent on a real loss."""
    target = tapegrad.tensor([2 - 1j, -0.5 + 3j])
    z = tapegrad.zeros(2, dtype=tapegrad.cfloat, requires_grad=True)
    for _ in range(100):
        loss = (z - target).abs().pow(2).sum()
        loss.backward()
        with tapegrad.no_grad():
            z -= 0.1 * z.grad
        z.grad = None
    np.testing.assert_allclose(z.detach().numpy(), target.numpy(), atol=1e-5)


def test_a_compiled_function_meeting_complex_numbers_runs_eagerly_and_says_why():
    from tapegrad.compile import CompileWarning, GraphBreakError

    def spectrum_energy(x):
        return (x * tapegrad.exp(1j * x)).abs().pow(2).sum()

    x = tapegrad.tensor(X.copy(), requires_grad=True)
    with pytest.warns(CompileWarning, match="to_dtype computes in complex numbers"):
        y = tapegrad.compile(spectrum_energy)(x)
    y.backward()
    expected = tapegrad.tensor(X.copy(), requires_grad=True)
    spectrum_energy(expected).backward()
    np.testing.assert_allclose(x.grad.numpy(), expected.grad.numpy())
    with pytest.raises(GraphBreakError, match="complex tensors run eagerly"):
        tapegrad.compile(spectrum_energy, fullgraph=True)(x)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "NAdam"])
def test_optimizers_update_complex_parameters_as_real_pairs(name, torch):
    """PyTorch's optimizers view a complex parameter as real pairs: Adam's second moment is
    re^2 and im^2, not a complex square, and the state is kept complex."""
    def trajectory(lib):
        w = lib.nn.Parameter(lib.tensor([1 + 1j, -0.5 + 2j]))
        target = lib.tensor([0.3 - 1j, 1 + 0.5j])
        optimizer = getattr(lib.optim, name)([w], lr=0.1)
        for _ in range(5):
            optimizer.zero_grad()
            (w - target).abs().pow(2).sum().backward()
            optimizer.step()
        moments = [str(v.dtype) for k, v in sorted(optimizer.state[w].items()) if k != "step"]
        return w.detach().numpy(), moments
    (ours, our_moments), (theirs, their_moments) = trajectory(tapegrad), trajectory(torch)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5)
    assert our_moments == their_moments


def test_norms_of_complex_tensors_are_norms_of_magnitudes(torch):
    def norms(lib):
        z = lib.tensor([3 + 4j, 1 - 1j, 0j], requires_grad=True)
        n = z.norm()
        n.backward()
        return (n.detach().numpy(), z.grad.numpy(), lib.linalg.vector_norm(z.detach(), 1).numpy(),
                lib.linalg.vector_norm(z.detach(), float("inf")).numpy())
    for ours, theirs in zip(norms(tapegrad), norms(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_vdot_conjugates_its_first_argument(torch):
    def run(lib):
        a = lib.tensor([1 + 2j, 3 - 1j], requires_grad=True)
        b = lib.tensor([0.5 - 1j, 2 + 2j], requires_grad=True)
        y = lib.vdot(a, b)
        (y.real + 2 * y.imag).backward()
        return y.detach().numpy(), a.grad.numpy(), b.grad.numpy()
    for ours, theirs in zip(run(tapegrad), run(torch)):
        np.testing.assert_allclose(ours, theirs)
    a = tapegrad.tensor(Z.copy())
    assert tapegrad.vdot(a, a).item() == pytest.approx((np.abs(Z) ** 2).sum())


def test_conjugate_transposes_conjugate():
    z = tapegrad.tensor(M.copy())
    for transposed in (z.mH, z.H, z.adjoint()):
        np.testing.assert_array_equal(transposed.numpy(), M.conj().T)
    x = tapegrad.tensor(X.copy()).reshape(5, 1)
    assert x.mH.tolist() == x.mT.tolist()


A = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, 0.2], [0.3, 0.1, 2.0]])  # eigenvalues -0.03 +- 0.98i, 2.06


def _eig_loss(lib, a):
    values, vectors = lib.linalg.eig(a)
    weights = lib.arange(9.0, dtype=lib.float64).reshape(3, 3)
    return values.real.sum() + (values.abs() ** 2).sum() + (vectors.abs() ** 2 * weights).sum()


def test_eig_gives_eigenpairs_of_a_real_matrix_and_their_gradient():
    a = tapegrad.tensor(A.copy(), requires_grad=True)
    values, vectors = tapegrad.linalg.eig(a)
    assert values.dtype is tapegrad.complex128 and vectors.dtype is tapegrad.complex128
    np.testing.assert_allclose((a.detach().to(tapegrad.complex128) @ vectors).detach().numpy(),
                               (vectors * values).detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(vectors.detach().numpy(), axis=0), 1)
    _eig_loss(tapegrad, a).backward()
    h, expected = 1e-6, np.zeros_like(A)
    for index in np.ndindex(A.shape):
        step = np.zeros_like(A)
        step[index] = h
        with tapegrad.no_grad():
            expected[index] = (_eig_loss(tapegrad, tapegrad.tensor(A + step)).item()
                               - _eig_loss(tapegrad, tapegrad.tensor(A - step)).item()) / (2 * h)
    np.testing.assert_allclose(a.grad.numpy(), expected, atol=1e-6)


def test_eig_matches_pytorch(torch):
    def run(lib):
        a = lib.tensor(A.copy(), requires_grad=True)
        loss = _eig_loss(lib, a)
        loss.backward()
        rotation = lib.tensor([[0.0, -1.0], [1.0, 0.0]])
        return (loss.detach().numpy(), a.grad.numpy(), lib.linalg.eigvals(rotation).numpy(),
                str(lib.linalg.eigvals(rotation).dtype))
    ours, theirs = run(tapegrad), run(torch)
    for a, b in zip(ours[:3], theirs[:3]):
        np.testing.assert_allclose(a, b, atol=1e-10)
    assert ours[3] == theirs[3]


def test_a_loss_of_eigenvector_phases_is_refused_as_pytorch(torch):
    def message(lib):
        _, vectors = lib.linalg.eig(lib.tensor(A.copy(), requires_grad=True))
        with pytest.raises(RuntimeError) as caught:
            vectors.real.sum().backward()
        return str(caught.value)
    assert message(tapegrad) == message(torch)


def test_determinants_inverses_and_solves_of_complex_matrices_differentiate(torch):
    def run(lib):
        z = lib.tensor(M.copy(), requires_grad=True)
        rhs = lib.tensor(W.copy())
        loss = (lib.linalg.det(z).abs() + lib.linalg.inv(z).abs().sum()
                + lib.linalg.solve(z, rhs).real.sum())
        loss.backward()
        return loss.detach().numpy(), z.grad.numpy()
    for ours, theirs in zip(run(tapegrad), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-8)


def test_assert_close_compares_complex_tensors_as_pytorch(torch):
    def outcome(lib):
        z = lib.tensor([[1 + 2j, 0.5 - 1j], [3j, -2 + 0j]])
        lib.testing.assert_close(z, z + 1e-9)
        with pytest.raises(AssertionError) as caught:
            lib.testing.assert_close(z, z + 1e-2)
        return str(caught.value)
    assert outcome(tapegrad) == outcome(torch)


def test_layers_save_and_load_take_complex_dtypes(torch):
    import io
    layer = tapegrad.nn.Linear(2, 3, dtype=tapegrad.cfloat)
    assert layer.weight.dtype is tapegrad.complex64
    out = layer(tapegrad.tensor([[1 + 2j, 0.5 - 1j]]))
    assert out.dtype is tapegrad.complex64 and out.shape == (1, 3)
    buffer = io.BytesIO()
    tapegrad.save({"z": tapegrad.tensor(Z.copy())}, buffer)
    buffer.seek(0)
    np.testing.assert_array_equal(tapegrad.load(buffer)["z"].numpy(), Z)


@pytest.mark.parametrize("name", ["square", "tanh", "matmul", "sigmoid", "reciprocal", "sin"])
def test_gradients_print_pytorchs_signed_zeros(name, torch):
    """An exact zero in a gradient is +0 where PyTorch's g * conj(w) gives +0 (a conjugated
    product would give -0, and print as 0.-0.j)."""
    losses = {"square": lambda z: (z ** 2).abs().sum(), "tanh": lambda z: z.tanh().abs().sum(),
              "matmul": lambda z: (z[None] @ z[:, None]).abs().sum(),
              "sigmoid": lambda z: z.sigmoid().real.sum(),
              "reciprocal": lambda z: (1 / (z + 1)).abs().sum(), "sin": lambda z: z.sin().imag.sum()}

    def gradient(lib):
        z = lib.tensor([1 + 2j, 0j, -3 + 0.5j], requires_grad=True)
        return lib.autograd.grad(losses[name](z), z)[0].numpy()
    ours, theirs = gradient(tapegrad), gradient(torch)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    zeros = theirs.imag == 0
    assert np.array_equal(np.signbit(ours.imag[zeros]), np.signbit(theirs.imag[zeros]))


def test_modules_convert_to_complex_dtypes_with_pytorchs_warning(torch):
    import warnings

    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = lib.nn.Linear(2, 3).to(lib.cfloat)
        out = layer(lib.ones(1, 2, dtype=lib.cfloat))
        back = layer.to(lib.float64)
        return (str(layer.weight.dtype), str(out.dtype), str(back.weight.dtype),
                [str(w.message) for w in caught if "Complex modules" in str(w.message)])
    assert run(tapegrad) == run(torch)


def test_python_numbers_from_complex_tensors_as_pytorch(torch):
    def outcomes(lib):
        z = lib.tensor(1 + 2j)
        results = []
        for call in (lambda: complex(z), lambda: complex(lib.tensor(2.5)), lambda: float(z),
                     lambda: int(z), lambda: lib.tensor([3 + 4j]).abs_(),
                     lambda: lib.arange(3, dtype=lib.cfloat)):
            try:
                results.append(repr(call()))
            except (RuntimeError, NotImplementedError, TypeError) as error:
                results.append(f"{type(error).__name__}: {error}")
        return results
    assert outcomes(tapegrad) == outcomes(torch)


def test_linspace_between_complex_ends(torch):
    def ramps(lib):
        return [lib.linspace(0, 1j, 3).numpy(), lib.linspace(1 + 1j, 2 - 1j, 4).numpy(),
                lib.linspace(-1 + 0.3j, 2 - 1j, 7, dtype=lib.cdouble).numpy()]
    for ours, theirs in zip(ramps(tapegrad), ramps(torch)):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


HERMITIAN = np.array([[2.0, 1 - 1j, 0.5j], [1 + 1j, 3.0, 0.2], [-0.5j, 0.2, 1.0]])


def _eigh_loss(lib, h):
    values, vectors = lib.linalg.eigh(h)
    weights = lib.arange(9.0, dtype=lib.float64).reshape(3, 3)
    return ((values * lib.arange(3.0, dtype=lib.float64)).sum()
            + (vectors.abs() ** 2 * weights).sum() + lib.linalg.eigvalsh(h).pow(2).sum())


def test_eigh_of_hermitian_matrices_and_its_gradient(torch):
    def run(lib):
        h = lib.tensor(HERMITIAN.copy(), requires_grad=True)
        values, vectors = lib.linalg.eigh(h)
        _eigh_loss(lib, h).backward()
        return values.detach().numpy(), vectors.abs().detach().numpy(), h.grad.numpy()
    ours, theirs = run(tapegrad), run(torch)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, atol=1e-10)
    values, vectors = ours[0], tapegrad.linalg.eigh(tapegrad.tensor(HERMITIAN))[1].numpy()
    np.testing.assert_allclose(HERMITIAN @ vectors, vectors * values, atol=1e-12)


def test_eigh_gradient_is_finite_differences_along_hermitian_directions():
    """The loss is a function of a Hermitian matrix: its directional derivative along a
    Hermitian direction D is Re <grad, D>."""
    h = tapegrad.tensor(HERMITIAN.copy(), requires_grad=True)
    _eigh_loss(tapegrad, h).backward()
    direction = np.array([[0.3, 0.1 + 0.2j, -0.4j], [0.1 - 0.2j, -0.5, 0.7], [0.4j, 0.7, 0.2]])
    step = 1e-6
    with tapegrad.no_grad():
        plus = _eigh_loss(tapegrad, tapegrad.tensor(HERMITIAN + step * direction)).item()
        minus = _eigh_loss(tapegrad, tapegrad.tensor(HERMITIAN - step * direction)).item()
    expected = (plus - minus) / (2 * step)
    assert np.real(np.sum(np.conj(h.grad.numpy()) * direction)) == pytest.approx(expected,
                                                                                 rel=1e-6)


def test_cholesky_of_hermitian_positive_definite_matrices(torch):
    matrix = np.array([[4.0, 1 - 1j, 0.5j], [1 + 1j, 3.0, 0.2], [-0.5j, 0.2, 2.0]])

    def run(lib, upper):
        a = lib.tensor(matrix.copy(), requires_grad=True)
        factor = lib.linalg.cholesky(a, upper=upper)
        weights = lib.arange(9.0, dtype=lib.float64).reshape(3, 3)
        ((factor.abs() ** 2 * weights).sum() + factor.real.sum() + 2 * factor.imag.sum()
         ).backward()
        return factor.detach().numpy(), a.grad.numpy()
    for upper in (False, True):
        (factor, grad), (their_factor, their_grad) = run(tapegrad, upper), run(torch, upper)
        np.testing.assert_allclose(factor, their_factor, atol=1e-12)
        np.testing.assert_allclose(grad, their_grad, atol=1e-10)
        lower = factor.conj().T if upper else factor
        np.testing.assert_allclose(lower @ lower.conj().T, matrix, atol=1e-12)
