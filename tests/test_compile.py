"""tapegrad.compile on whole programs: values and gradients against eager, backward semantics,
guards and recompiles, graph breaks, explain(), modules.

Numba compiles are slow, so each compiled function here is built once per module (fixtures) and
reused by several tests with fresh inputs of the same shapes (the guards hold: no recompile).
"""
import itertools
import logging
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.compile import CompiledFunction, CompileWarning, GraphBreakError

from compile_helpers import assert_close, fresh_leaves, kernel_cache, no_fallback  # noqa: F401

rng = np.random.default_rng(7)


def leaf(*shape, low=-1.0, high=1.0, grad=True, dtype=np.float32):
    t = tapegrad.Tensor._make(rng.uniform(low, high, shape).astype(dtype))
    return t.requires_grad_(True) if grad else t


def chain(x, w, b):
    return (tapegrad.tanh(x * w + b) * tapegrad.sigmoid(x) + tapegrad.exp(-x * x)).sum()


def composites(x, w1, b1, w2, logits, target, a, bias, m1, m2, m3, big, table, index):
    """Several graph shapes at once (one kernel pair): an MLP with cross-entropy, softmax and
    log-softmax chains, broadcasting, keepdim reductions, indexing and a matmul chain."""
    hidden = tapegrad.relu(x @ w1.t() + b1)
    mlp = nn.functional.cross_entropy(hidden @ w2.t(), target)
    soft = (logits.softmax(1) * logits.log_softmax(1)).sum(1)
    lse = tapegrad.logsumexp(logits, 1) - logits.amax(1)
    centered = a - a.mean(0, keepdim=True)
    normed = centered / (centered.std(1, keepdim=True) + 1.0) * bias
    chained = (m1 @ m2 @ m3).tanh()
    column_sums = big.sum(0)             # a long outer reduction
    total = (big * big).sum()            # a long full reduction
    picked = table[index] * 2 + table[1:3].sum()
    return mlp, soft, lse, normed, chained, column_sums, total, picked


def composite_inputs():
    return [leaf(16, 20), leaf(32, 20), leaf(32), leaf(5, 32), leaf(16, 5, low=-3, high=3),
            tapegrad.randint(0, 5, (16,)), leaf(6, 7), leaf(7), leaf(4, 6), leaf(6, 3),
            leaf(3, 5), leaf(300, 700), leaf(10, 4),
            tapegrad.tensor([0, 3, 3, 9, 1])]


def _eager_and_compiled(function, inputs):
    """Outputs and gradients of ``function``, eager and compiled (compiled called twice: the
    first call traces and runs eagerly, the second runs the kernels)."""
    eager_inputs = fresh_leaves(inputs)
    eager = function(*eager_inputs)
    eager = eager if isinstance(eager, tuple) else (eager,)
    weights = [leaf(*o.shape, low=0.5, high=1.5, grad=False) for o in eager]
    sum(((o * w).sum() for o, w in zip(eager, weights)), tapegrad.tensor(0.0)).backward()
    compiled_function = tapegrad.compile(function)
    compiled_function(*fresh_leaves(inputs))
    compiled_inputs = fresh_leaves(inputs)
    compiled = compiled_function(*compiled_inputs)
    compiled = compiled if isinstance(compiled, tuple) else (compiled,)
    sum(((o * w).sum() for o, w in zip(compiled, weights)), tapegrad.tensor(0.0)).backward()
    return eager, compiled, eager_inputs, compiled_inputs, compiled_function


@pytest.fixture(scope="module")
def composite_run():
    return _eager_and_compiled(composites, composite_inputs())


@pytest.fixture(scope="module")
def compiled_chain():
    return tapegrad.compile(chain)


def test_composite_graphs_match_eager(composite_run):
    eager, compiled, eager_inputs, compiled_inputs, _ = composite_run
    names = ["mlp cross-entropy", "softmax chain", "logsumexp", "broadcast/keepdim", "matmul chain",
             "column sums", "total", "indexing"]
    for name, e, c in zip(names, eager, compiled):
        assert c.grad_fn.name() == "CompiledFunctionBackward"
        assert_close(c, e, rtol=1e-5, atol=1e-5, what=name)
    for i, (e, c) in enumerate(zip(eager_inputs, compiled_inputs)):
        if e.requires_grad:
            assert_close(c.grad, e.grad, rtol=2e-4, atol=2e-5, what=f"gradient of input {i}")


def test_composite_kernels_are_one_forward_and_one_backward(composite_run):
    *_, compiled_function = composite_run
    text = str(compiled_function.explain())
    assert text.count("def forward(") == 1 and text.count("def backward(") == 1
    assert "ops without a lowering" not in text


def _products(x, w, v, batch_a, batch_b):
    """Every kind of matrix product a kernel makes: mm (plain and transposed operands), mv, dot,
    bmm, addmm (nn.Linear)."""
    linear = nn.functional.linear(x, w, v[:3])
    return ((x @ w.t()).tanh().sum() + (x.t() @ x).sum() + (x @ v).sum() + tapegrad.dot(v, v)
            + (batch_a @ batch_b).sum() + linear.sum())


def _product_inputs(dtype):
    return [leaf(5, 4, dtype=dtype), leaf(3, 4, dtype=dtype), leaf(4, dtype=dtype),
            leaf(2, 3, 4, dtype=dtype), leaf(2, 4, 5, dtype=dtype)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matrix_products_call_numpys_blas_and_match_eager(dtype):
    from tapegrad.compile import kernel_math
    if kernel_math.blas_gemm(dtype) is None:
        pytest.skip("numpy's BLAS is not found in this numpy build: kernels use Numba's np.dot")
    eager, compiled, eager_inputs, compiled_inputs, function = _eager_and_compiled(
        _products, _product_inputs(dtype))
    assert_close(compiled[0], eager[0], rtol=1e-5, atol=1e-5)
    for e, c in zip(eager_inputs, compiled_inputs):
        assert_close(c.grad, e.grad, rtol=1e-4, atol=1e-5)
    text = str(function.explain())
    assert "M.mm_" not in text and "np.dot" not in text  # numpy's cblas_?gemm, not Numba's np.dot
    for entry in function.explain().specializations:  # residuals arrive as the kernel expects
        assert len(entry.program.backward.signatures) == 1


@pytest.mark.parametrize("fallback", ["mm", "loop_mm"])
def test_matrix_products_without_numpys_blas_use_the_fallback(monkeypatch, fallback):
    """Numba's np.dot (``mm_*``, needs SciPy) or loops (``loop_mm_*``, without SciPy)."""
    from tapegrad.compile import kernel_math
    if fallback == "mm":
        pytest.importorskip("scipy")
    monkeypatch.setattr(kernel_math, "blas_gemm", lambda dtype: None)
    monkeypatch.setattr(kernel_math, "FALLBACK_PRODUCT", fallback)
    eager, compiled, eager_inputs, compiled_inputs, function = _eager_and_compiled(
        _products, _product_inputs(np.float32))
    assert_close(compiled[0], eager[0], rtol=1e-5, atol=1e-5)
    for e, c in zip(eager_inputs, compiled_inputs):
        assert_close(c.grad, e.grad, rtol=1e-4, atol=1e-5)
    assert f"M.{fallback}_" in str(function.explain())


def test_without_scipy_kernels_fall_back_to_loops(tmp_path):
    """Where SciPy is missing, Numba has no BLAS for np.dot: the fallback is the loops."""
    program = textwrap.dedent("""
        import sys
        sys.modules["scipy"] = None  # as if not installed
        import numpy as np
        import tapegrad
        from tapegrad.compile import kernel_math
        kernel_math.blas_gemm = lambda dtype: None
        assert kernel_math.FALLBACK_PRODUCT == "loop_mm"
        x = tapegrad.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
        v = tapegrad.tensor(np.arange(4.0), requires_grad=True)
        f = tapegrad.compile(lambda x, v: (x @ x.t()).sum() + (x @ v).sum() + tapegrad.dot(v, v))
        f(x, v)
        out = f(x, v)
        out.backward()
        print(out.item(), x.grad.sum().item(), v.grad.sum().item())
    """)
    env = dict(os.environ, TAPEGRAD_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    x, v = np.arange(12.0).reshape(3, 4), np.arange(4.0)
    expected = (x @ x.T).sum() + (x @ v).sum() + v @ v
    x_grad = 2 * np.ones((3, 3)) @ x + np.outer(np.ones(3), v)
    v_grad = x.T @ np.ones(3) + 2 * v
    assert [float(t) for t in done.stdout.split()] == pytest.approx(
        [expected, x_grad.sum(), v_grad.sum()])


def test_long_loops_run_in_parallel_unless_the_kernel_calls_blas(composite_run):
    *_, with_matmuls = composite_run
    # BLAS brings its own threads: Numba's beside them would fight for the cores
    assert "prange(" not in str(with_matmuls.explain())
    elementwise = tapegrad.compile(lambda big: (big * big).tanh().sum())
    for _ in range(2):
        elementwise(leaf(300, 700)).backward()
    assert str(elementwise.explain()).count("prange(") >= 2  # forward and backward


def test_each_kernel_is_compiled_once_for_the_types_it_was_built_for(compiled_chain):
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    for _ in range(3):
        compiled_chain(x, w, b).backward()  # a 0-d loss: its gradient is a 0-d array
    for entry in compiled_chain.explain().specializations:
        program = entry.program
        assert len(program.forward.signatures) == len(program.backward.signatures) == 1


def test_strided_inputs_are_made_contiguous_for_the_kernel_without_a_recompile(compiled_chain):
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    compiled_chain(x, w, b)
    compiled_chain(x, w, b)
    entries = len(compiled_chain.explain().specializations)
    x_strided = tapegrad.from_numpy(rng.uniform(-1, 1, 2000).astype(np.float32)[::2])
    w_strided = tapegrad.from_numpy(rng.uniform(-1, 1, (1000, 2)).astype(np.float32)[:, 1])
    w_strided.requires_grad_(True)
    x_before, w_before = x_strided.clone(), w_strided.detach().clone()
    out = compiled_chain(x_strided, w_strided, b)
    out.backward()
    assert len(compiled_chain.explain().specializations) == entries
    program = compiled_chain.explain().specializations[-1].program
    assert len(program.forward.signatures) == len(program.backward.signatures) == 1
    expected_w, expected_b = fresh_leaves([w_strided, b])
    expected = chain(x_strided, expected_w, expected_b)
    expected.backward()
    assert_close(out, expected, rtol=1e-5)
    assert_close(w_strided.grad, expected_w.grad, rtol=1e-5, atol=1e-6)
    assert np.array_equal(x_strided.numpy(), x_before.numpy())
    assert np.array_equal(w_strided.detach().numpy(), w_before.numpy())


def test_elementwise_chain_fuses_into_one_loop_each_way(compiled_chain, no_fallback):  # noqa: F811
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    out = compiled_chain(x, w, b)
    out = compiled_chain(x, w, b)
    out.backward()
    expected_w, expected_b = fresh_leaves([w, b])
    chain(x, expected_w, expected_b).backward()
    assert_close(out, chain(x, w.detach(), b.detach()), rtol=1e-5)
    assert_close(w.grad, expected_w.grad, rtol=1e-5, atol=1e-6)
    assert_close(b.grad, expected_b.grad, rtol=1e-5, atol=1e-6)
    specialization = compiled_chain.explain().specializations[-1]
    assert specialization.program.text["forward kernels (fused groups)"].count("loop") == 1
    assert specialization.program.text["backward kernels (fused groups)"].count("loop") == 1
    assert "recomputed in backward: " in specialization.describe()
    assert "saved for backward: nothing" in specialization.describe()


def test_gradients_accumulate_and_the_graph_is_freed(compiled_chain):
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    out = compiled_chain(x, w, b)
    out.backward(retain_graph=True)
    first = w.grad.clone()
    out.backward()
    assert_close(w.grad, first * 2, rtol=1e-6)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()


def test_no_grad_records_nothing(compiled_chain):
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    with tapegrad.no_grad():
        out = compiled_chain(x, w, b)
        out = compiled_chain(x, w, b)
    assert out.grad_fn is None and not out.requires_grad
    assert_close(out, chain(x, w.detach(), b.detach()), rtol=1e-5)



def test_enable_grad_inside_a_call_under_no_grad_gives_a_differentiable_output():
    def doubled_with_grad(x):
        with tapegrad.enable_grad():
            return x * 2
    compiled = tapegrad.compile(doubled_with_grad)
    x = leaf(5)
    with tapegrad.no_grad():
        outs = [compiled(x), compiled(x)]  # traced, then compiled
    for out in outs:
        assert out.requires_grad and out.grad_fn is not None
        out.sum().backward()
    assert_close(x.grad, tapegrad.full((5,), 4.0), rtol=0)


def test_compiled_and_eager_mix_in_one_graph(compiled_chain):
    x, w0, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    scale = leaf(1)
    w = w0 * 2                            # eager before: a non-leaf input
    out = compiled_chain(x, w, b) * scale  # eager after
    out = compiled_chain(x, w, b) * scale
    out.backward()
    e_w0, e_b, e_scale = fresh_leaves([w0, b, scale])
    (chain(x, e_w0 * 2, e_b) * e_scale).backward()
    assert_close(w0.grad, e_w0.grad, rtol=1e-5, atol=1e-6)
    assert_close(scale.grad, e_scale.grad, rtol=1e-5)
    assert out.grad_fn.next_functions[0][0].name() == "CompiledFunctionBackward"


def test_modifying_a_saved_input_in_place_is_refused(compiled_chain):
    x, w, b = leaf(1000, grad=False), leaf(1000), leaf(1000)
    out = compiled_chain(x, w, b)
    out = compiled_chain(x, w, b)
    with tapegrad.no_grad():
        w.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


def test_shape_change_recompiles_and_says_why(caplog):
    def scale(x):
        return x * 3
    compiled = tapegrad.compile(scale)
    tapegrad.compile.set_logs(recompiles=True)
    try:
        with caplog.at_level(logging.INFO, logger="tapegrad.compile"):
            compiled(leaf(4, grad=False))
            compiled(leaf(4, grad=False))
            compiled(leaf(5, grad=False))
            assert_close(compiled(leaf(5, grad=False) * 0 + 1), tapegrad.ones(5) * 3)
    finally:
        tapegrad.compile.set_logs(recompiles=False)
    assert "recompiling test_shape_change_recompiles_and_says_why.<locals>.scale(): " \
           "x.shape[0] changed 4 → 5" in caplog.text
    assert caplog.text.count("recompiling") == 1



def test_an_inference_tensor_argument_recompiles_and_is_refused_as_in_eager(caplog):
    """Features made under inference_mode, then trained on: the call cannot reuse the
    specialization traced for a normal tensor (which would save it for backward)."""
    linear = tapegrad.nn.Linear(3, 2)
    compiled = tapegrad.compile(linear)
    compiled(tapegrad.zeros(2, 3))
    with tapegrad.inference_mode():
        features = tapegrad.ones(2, 3)
    tapegrad.compile.set_logs(recompiles=True)
    try:
        with caplog.at_level(logging.INFO, logger="tapegrad.compile"):
            with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for "
                                                   "backward"):
                compiled(features)
    finally:
        tapegrad.compile.set_logs(recompiles=False)
    assert "is_inference() changed False → True" in caplog.text
    with tapegrad.inference_mode():
        assert compiled(features).is_inference()
    assert compiled(tapegrad.ones(2, 3)).requires_grad

SCALE = 2.0


def _times_scale(x):
    return x * SCALE


class _Scaled(tapegrad.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear, self.scale = tapegrad.nn.Linear(2, 2), 0.5

    def forward(self, x):
        return self.linear(x) * self.scale


def test_python_values_read_from_globals_and_modules_are_guarded(caplog):
    """A number the trace baked into the graph is checked on every call: a new value
    recompiles (with the reason) instead of silently reusing the old one."""
    global SCALE
    compiled, model = tapegrad.compile(_times_scale), _Scaled()
    compiled_model, x = tapegrad.compile(model), tapegrad.ones(1, 2)
    tapegrad.compile.set_logs(recompiles=True)
    try:
        with caplog.at_level(logging.INFO, logger="tapegrad.compile"):
            assert_close(compiled(tapegrad.ones(2)), tapegrad.full((2,), 2.0))
            before = compiled_model(x)
            SCALE, model.scale = 3.0, 2.0
            assert_close(compiled(tapegrad.ones(2)), tapegrad.full((2,), 3.0))
            assert_close(compiled_model(x), before * 4)
            model.eval()
            compiled_model(x)
    finally:
        SCALE = 2.0
        tapegrad.compile.set_logs(recompiles=False)
    assert "the global 'SCALE' changed 2.0 → 3.0" in caplog.text
    assert "self.scale changed 0.5 → 2.0" in caplog.text
    assert "self.training changed True → False" in caplog.text


def test_a_module_attribute_set_to_its_old_value_needs_no_recompile():
    model = _Scaled()
    compiled, x = tapegrad.compile(model), tapegrad.ones(1, 2)
    compiled(x)
    model.scale = 0.5  # moves nn's change counter; the settings are as traced
    compiled(x)
    assert len(compiled.forward._entries) == 1


def test_recompile_limit_warns_once_then_runs_eagerly(compiled_chain):
    def double(x):
        return x * 2
    compiled = tapegrad.compile(double, recompile_limit=1)
    compiled(leaf(3, grad=False))
    with pytest.warns(CompileWarning, match=r"recompile limit \(1\).*x.shape\[0\] changed 3 → 4"):
        out = compiled(leaf(4, grad=False) * 0 + 1)
    assert_close(out, tapegrad.ones(4) * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compiled(leaf(5, grad=False))


def test_dynamo_config_sets_the_recompile_limit_of_every_function():
    config = tapegrad._dynamo.config
    compiled = tapegrad.compile(lambda x: x * 2)
    config.cache_size_limit = 1  # PyTorch's older name of recompile_limit
    try:
        compiled(tapegrad.ones(2))
        with pytest.warns(CompileWarning, match=r"recompile limit \(1\)"):
            compiled(tapegrad.ones(3))
    finally:
        config.recompile_limit = 8
    assert tapegrad.compile(lambda x: x, recompile_limit=3)._limit == 3  # its own wins


def _branchy(x):
    if x.sum() > 0:
        return x * 2
    return x - 1


def test_graph_break_warns_once_naming_the_line_and_runs_eagerly():
    compiled = tapegrad.compile(_branchy)
    positive = leaf(3, low=0.5, grad=False)
    with pytest.warns(CompileWarning, match="graph break in _branchy") as caught:
        out = compiled(positive)
    assert caught[0].filename == __file__
    assert caught[0].lineno == _branchy.__code__.co_firstlineno + 1
    assert "Tensor.__bool__() reads the value of a traced tensor" in str(caught[0].message)
    assert_close(out, positive * 2)
    negative = leaf(3, low=-2, high=-1, grad=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_close(compiled(negative), negative - 1)  # still eager: takes the other branch


@pytest.mark.parametrize("reader", ["item", "tolist", "numpy"])
def test_reading_values_is_a_graph_break(reader):
    def read(x):
        y = x * 2
        value = getattr(y.detach() if reader == "numpy" else y, reader)()
        return y + float(np.sum(value))
    with pytest.warns(CompileWarning, match=f"Tensor.{reader}"):
        out = tapegrad.compile(read)(tapegrad.ones(1))
    assert out.item() == 4.0


def test_fullgraph_raises_naming_the_line():
    compiled = tapegrad.compile(_branchy, fullgraph=True)
    line = _branchy.__code__.co_firstlineno + 1
    with pytest.raises(GraphBreakError, match=rf"test_compile.py:{line}"):
        compiled(leaf(3, grad=False))


def test_errors_are_eager_errors():
    def add(a, b):
        return a + b
    with pytest.raises(RuntimeError, match="The size of tensor a \\(3\\) must match the size of "
                                           "tensor b \\(4\\) at non-singleton dimension 0"):
        tapegrad.compile(add)(tapegrad.ones(3), tapegrad.ones(4))


def test_explain_shows_graphs_groups_and_source(composite_run):
    *_, compiled_function = composite_run
    text = str(compiled_function.explain())
    for part in ["guards:", "x.shape == (16, 20)", "forward graph (traced):", "{ lambda ",
                 "= mm ", "backward graph:", "forward kernels (fused groups):", "loop over [16,32]",
                 "save or recompute:", "kernel source:", "@njit(cache=True", "compile time:"]:
        assert part in text, part


def test_explain_before_any_call_says_so():
    with pytest.raises(RuntimeError, match="has not been called yet"):
        tapegrad.compile(chain).explain()


def test_compile_rejects_what_it_cannot_compile():
    with pytest.raises(AssertionError, match="A callable function is expected"):
        tapegrad.compile(3)


def test_decorator_forms():
    @tapegrad.compile
    def first(x):
        return x + 1

    @tapegrad.compile(fullgraph=True)
    def second(x):
        return x + 1
    assert isinstance(first, CompiledFunction) and isinstance(second, CompiledFunction)
    assert first(tapegrad.ones(2)).tolist() == second(tapegrad.ones(2)).tolist() == [2.0, 2.0]


def test_module_compiles_and_shares_parameters(composite_run):
    tapegrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    compiled = tapegrad.compile(model)
    assert type(compiled).__name__ == "OptimizedModule" and compiled._orig_mod is model  # PyTorch's
    assert list(compiled.state_dict()) == ["_orig_mod." + key for key in model.state_dict()]
    assert [id(p) for p in compiled.parameters()] == [id(p) for p in model.parameters()]
    compiled.eval()
    assert not model.training
    compiled.train()
    x = leaf(16, 20, grad=False)
    compiled(x)
    out = compiled(x)
    assert out.grad_fn.name() == "CompiledFunctionBackward"
    assert "Sequential.forward() specialization 0" in str(compiled.explain())
    assert_close(out, model(x), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    expected = [p.grad.clone() for p in model.parameters()]
    for p in model.parameters():
        p.grad = None
    model(x).sum().backward()
    for got, want in zip(expected, (p.grad for p in model.parameters())):
        assert_close(got, want, rtol=1e-5, atol=1e-6)
    with tapegrad.no_grad():
        model[0].weight.mul_(0)                  # the compiled module sees parameter updates
    assert_close(compiled(x), model(x), rtol=1e-5, atol=1e-6)
    compiled.note = "set through the wrapper"  # lands on the model, as in PyTorch
    assert model.note == "set through the wrapper" and "note" not in vars(compiled)


def test_pytorch_backends_modes_and_dynamic_are_accepted():
    def double(x):
        return x * 2
    x = tapegrad.ones(3)
    for backend in ("inductor", "numba", "eager", "aot_eager"):
        for mode in (None, "default", "reduce-overhead", "max-autotune"):
            compiled = tapegrad.compile(double, backend=backend, mode=mode, dynamic=True)
            assert_close(compiled(x), x * 2)
            assert_close(compiled(x), x * 2)
            assert bool(compiled._entries) == (backend in ("inductor", "numba"))
    with pytest.raises(tapegrad._dynamo.exc.InvalidBackend, match="Invalid backend: 'nope'"):
        tapegrad.compile(double, backend="nope")
    with pytest.raises(RuntimeError, match="Unrecognized mode=fastest, should be one of"):
        tapegrad.compile(double, mode="fastest")
    with pytest.raises(RuntimeError, match="Either mode or options can be specified"):
        tapegrad.compile(double, mode="max-autotune", options={})
    assert "inductor" in tapegrad._dynamo.list_backends()


def test_dynamo_helpers_programs_call():
    """Shape marks are accepted (every shape specializes); the old ``optimize`` compiles."""
    dynamo, x = tapegrad._dynamo, tapegrad.ones(3)
    assert dynamo.mark_dynamic(x, 0) is None and dynamo.mark_static(x) is None
    compiled = dynamo.optimize("inductor")(lambda t: t * 2)
    compiled(x)
    assert_close(compiled(x), x * 2) and compiled._entries
    assert dynamo.allow_in_graph(abs) is abs and tapegrad.compiler.assume_constant_result(abs) is abs
    assert dynamo.disable is tapegrad.compiler.disable
    assert not dynamo.is_compiling() and not tapegrad.compiler.is_dynamo_compiling()


def test_is_compiling_is_false_where_a_graph_break_runs_eagerly():
    @tapegrad.compiler.disable
    def scaled(t):
        return t * int(tapegrad.compiler.is_compiling())

    compiled = tapegrad.compile(lambda t: scaled(t) + 1)
    assert compiled(tapegrad.ones(2)).tolist() == [1.0, 1.0]
    traced = tapegrad.compile(lambda t: t * int(tapegrad.compiler.is_compiling()))
    assert traced(tapegrad.ones(2)).tolist() == [1.0, 1.0]


def test_reset_forgets_every_specialization():
    compiled = tapegrad.compile(lambda x: x + 1)
    compiled(tapegrad.ones(2))
    assert compiled._entries
    tapegrad.compiler.reset()
    assert not compiled._entries
    assert_close(compiled(tapegrad.ones(2)), tapegrad.full((2,), 2.0))
    tapegrad._dynamo.reset()
    assert not compiled._entries


def test_a_disabled_function_keeps_its_caller_eager():
    seen = []

    @tapegrad.compiler.disable
    def log(t):
        seen.append(tapegrad.compiler.is_compiling())
        return t

    @tapegrad.compile
    def step(t):
        return log(t * 2).sum()

    with warnings.catch_warnings():
        warnings.simplefilter("error", CompileWarning)  # asked for: no warning, as PyTorch
        assert step(tapegrad.ones(3)).item() == 6.0
    assert step(tapegrad.ones(3)).item() == 6.0
    assert "log() is marked torch.compiler.disable" in str(step.explain())
    assert not tapegrad.compiler.is_compiling()
    with pytest.raises(tapegrad.compile.GraphBreakError, match="marked torch.compiler.disable"):
        tapegrad.compile(lambda t: log(t), fullgraph=True)(tapegrad.ones(1))


def test_print_and_dynamo_graph_break_keep_the_function_eager():
    printed = []

    @tapegrad.compile
    def noisy(t):
        print("calls", file=Collector(printed))
        return t + 1

    @tapegrad.compile
    def split(t):
        tapegrad._dynamo.graph_break()
        return t * 2

    with pytest.warns(CompileWarning, match="print\\(\\) is a side effect"):
        noisy(tapegrad.ones(1))
    noisy(tapegrad.ones(1))
    assert printed == ["calls", "calls"]  # printed on every call, as PyTorch's graph break does
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompileWarning)
        assert split(tapegrad.ones(2)).tolist() == [2.0, 2.0]
    for strict in (lambda t: noisy._fn(t), lambda t: split._fn(t)):
        with pytest.raises(tapegrad._dynamo.exc.Unsupported) as error:
            tapegrad.compile(strict, fullgraph=True)(tapegrad.ones(1))
        assert isinstance(error.value, GraphBreakError)
    report = tapegrad._dynamo.explain(split._fn)(tapegrad.ones(2))
    assert (report.graph_count, report.graph_break_count) == (0, 1)
    assert "torch._dynamo.graph_break() was called" in str(report)
    assert tapegrad._dynamo.explain(lambda t: t + 1)(tapegrad.ones(2)).graph_count == 1


def test_ellipsis_keys_lower_to_plain_indexing():
    """``x[0, ...]`` (as nn.GRU/LSTM select a time step) is a view in the kernel, its gradient a
    plain assignment: no primitive runs through numpy inside the kernel."""
    def pick(x, v):
        y = x[1, ...] * 2 + x[..., 0:1].sum() + x[0, ..., 2].sum()
        z = x.clone()
        z[..., 1] = v
        return y.sum() + z.square().sum()

    compiled = tapegrad.compile(pick)
    for _ in range(2):  # traced, then compiled
        grads = []
        for fn in (pick, compiled):
            x = tapegrad.arange(24.0).reshape(2, 3, 4).requires_grad_()
            v = tapegrad.tensor([1.0, -1.0, 0.5], requires_grad=True)
            out = fn(x, v)
            out.backward()
            grads.append((out, x.grad, v.grad))
        for got, want in zip(grads[1], grads[0]):
            assert_close(got, want)
    assert not compiled.explain().specializations[0].program.fallback_ops


def _draws_everything(generator):
    def noisy(t):
        u = t.clone().uniform_(-1, 1, generator=generator)
        return (t * tapegrad.rand(4, generator=generator) + tapegrad.randn_like(t)
                + tapegrad.randint(0, 5, (4,)) + tapegrad.bernoulli(t.sigmoid())
                + tapegrad.nn.functional.dropout(t + 1, 0.5) + u.exponential_() + u.bernoulli_(0.3)
                + tapegrad.randperm(4) + tapegrad.normal(0.0, 1.0, (4,)))
    return noisy


def test_random_draws_are_fresh_inputs_of_each_compiled_call():
    """Each compiled call draws anew, by the recipe eager used: the same numbers eager draws."""
    generator = tapegrad.Generator()
    noisy = _draws_everything(generator)
    compiled = tapegrad.compile(noisy)
    x = tapegrad.linspace(-1, 1, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompileWarning)
        results = []
        for seed in (0, 0, 1, 1):  # traced, then compiled: both must give eager's numbers
            tapegrad.manual_seed(seed)
            generator.manual_seed(seed + 10)
            results.append((compiled(x), compiled(x)))
    tapegrad.manual_seed(1)
    generator.manual_seed(11)
    eager = noisy(x), noisy(x)
    assert _equal_pairs(results[3], eager)
    assert _equal_pairs(results[0], results[1])
    assert not tapegrad.equal(results[3][0], results[3][1])  # fresh numbers per call
    assert "kernel source:" in str(compiled.explain())  # compiled, not run eagerly


def _equal_pairs(first, second):
    """Equal up to the kernel's reassociated float rounding."""
    return all(tapegrad.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(first, second))


def test_compiled_dropout_model_trains_as_eager():
    """Dropout in training mode compiles: values and gradients equal eager's for one seed."""
    def make():
        tapegrad.manual_seed(0)
        return tapegrad.nn.Sequential(tapegrad.nn.Linear(4, 8), tapegrad.nn.ReLU(),
                                      tapegrad.nn.Dropout(0.5), tapegrad.nn.Linear(8, 2))
    eager_model, model = make(), make()
    compiled = tapegrad.compile(model)
    x = tapegrad.linspace(-1, 1, 12).reshape(3, 4)
    for step in range(3):
        tapegrad.manual_seed(step)
        expected = eager_model(x)
        expected.square().sum().backward()
        tapegrad.manual_seed(step)
        out = compiled(x)
        out.square().sum().backward()
        assert tapegrad.allclose(out, expected)
        for mine, theirs in zip(model.parameters(), eager_model.parameters()):
            assert tapegrad.allclose(mine.grad, theirs.grad)
    assert type(out.grad_fn).__name__ == "CompiledFunctionBackward"


def test_repeat_draws_anew_for_every_call():
    @tapegrad.compile
    def noisy(t):
        return t + tapegrad.rand(3)
    x = tapegrad.zeros(3)
    tapegrad.manual_seed(0)
    noisy(x)
    repeated = noisy.repeat(3, x)
    tapegrad.manual_seed(0)
    expected = [noisy._fn(x) for _ in range(4)][-1]
    assert tapegrad.equal(repeated, expected)


def test_distribution_samples_compile_as_eager():
    """rsample's noise is a graph input drawn on every call: a compiled reparameterized sample
    equals eager's numbers and gradients for one seed. (Checking the parameters reads their
    values, a graph break, as in PyTorch: models that compile turn it off.)"""
    D = tapegrad.distributions
    checks = {"validate_args": False}

    def sample(loc, scale):
        return (D.Normal(loc, scale, **checks).rsample((2,)) + D.Laplace(loc, scale, **checks)
                .rsample() + D.Gumbel(loc, scale, **checks).rsample()
                + D.Exponential(scale, **checks).rsample()
                + D.Geometric(scale.sigmoid(), **checks).sample()).sum()

    compiled = tapegrad.compile(sample)
    for seed in (0, 0, 3):  # traced, then compiled
        grads = []
        for fn in (sample, compiled):
            loc = tapegrad.linspace(-1, 1, 3, requires_grad=True)
            scale = tapegrad.tensor([0.5, 1.0, 2.0], requires_grad=True)
            tapegrad.manual_seed(seed)
            with warnings.catch_warnings():
                warnings.simplefilter("error", CompileWarning)
                out = fn(loc, scale)
            out.backward()
            grads.append((out, loc.grad, scale.grad))
        assert _equal_pairs(grads[0], grads[1])
    assert "kernel source:" in str(compiled.explain())


def test_a_distribution_sample_shaped_by_tensor_values_breaks_the_graph():
    @tapegrad.compile
    def counts(rate):
        return tapegrad.distributions.Poisson(rate, validate_args=False).sample() + 1

    rate = tapegrad.tensor([1.0, 2.0])
    with pytest.warns(CompileWarning, match=r"graph break in .*counts\(\) .*draws random "
                                            "numbers in a way a compiled graph cannot draw again"):
        tapegrad.manual_seed(0)
        first = counts(rate)
    tapegrad.manual_seed(0)
    assert tapegrad.equal(first, counts._fn(rate))  # run eagerly: eager's draws


@pytest.mark.parametrize("body", [
    lambda t: (tapegrad.manual_seed(0), t + tapegrad.rand(4))[1],
    lambda t: t + tapegrad.multinomial(t.abs() + 1, 4, replacement=True),
])
def test_a_reseed_or_a_draw_the_graph_cannot_repeat_breaks_it(body):
    with pytest.warns(CompileWarning, match="seeds a random generator, or draws random numbers"):
        tapegrad.compile(body)(tapegrad.ones(4))


def test_a_custom_function_on_the_gradient_path_breaks_the_graph():
    """Its backward is Python: compiled, the gradient would not reach the inputs."""
    class Cube(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 3 * x ** 2 * grad

    @tapegrad.compile
    def model(t):
        return Cube.apply(t * 2).sum()

    with pytest.warns(CompileWarning, match="Cube is a custom autograd.Function"):
        model(tapegrad.ones(2, requires_grad=True))
    for _ in range(2):
        t = tapegrad.tensor([1.0, 2.0], requires_grad=True)
        model(t).backward()
        assert t.grad.tolist() == [24.0, 96.0]
    with tapegrad.no_grad():  # no gradient to carry: compiled
        assert model(tapegrad.ones(2, requires_grad=True)).item() == 16.0


def test_the_first_call_returns_the_compiled_result_when_it_changed_nothing():
    """As PyTorch's first call does: the result carries the compiled backward."""
    model = tapegrad.nn.Linear(3, 2)
    compiled = tapegrad.compile(model)
    first = compiled(tapegrad.ones(4, 3))
    assert type(first.grad_fn).__name__ == "CompiledFunctionBackward"
    first.sum().backward()
    assert model.weight.grad.tolist() == [[4.0] * 3] * 2

    @tapegrad.compile
    def step(w):
        loss = (w * w).sum()
        loss.backward()  # a side effect: the traced call's result is the one returned
        return loss
    w = tapegrad.ones(2, requires_grad=True)
    assert type(step(w).grad_fn).__name__ != "CompiledFunctionBackward"
    assert w.grad.tolist() == [2.0, 2.0]


class Collector:
    """A file for print() that keeps each line."""

    def __init__(self, lines):
        self.lines = lines

    def write(self, text):
        if text.strip():
            self.lines.append(text.strip())


def test_set_stance_as_call_context_and_decorator():
    runs = itertools.count()  # counts the body's runs, unseen by the compiler (a list would be)

    @tapegrad.compile
    def step(t):
        next(runs)
        return t * 3

    with tapegrad.compiler.set_stance("force_eager"):
        step(tapegrad.ones(2)), step(tapegrad.ones(2))
    assert next(runs) == 2 and not step._entries and compiler_stance() == "default"
    step(tapegrad.ones(2))                     # traces and compiles
    step(tapegrad.ones(2))                     # compiled: the Python body does not run
    assert next(runs) == 4
    tapegrad.compiler.set_stance("eager_on_recompile")
    try:
        assert step(tapegrad.ones(3)).tolist() == [3.0] * 3 and len(step._entries) == 1
        tapegrad.compiler.set_stance("fail_on_recompile")
        assert step(tapegrad.ones(2)).tolist() == [3.0, 3.0]   # compiled code is still used
        with pytest.raises(RuntimeError, match="(?s)Detected recompile when torch.compile stance is "
                                               r"'fail_on_recompile'.*shape\[0\] changed 2 → 4"):
            step(tapegrad.ones(4))
    finally:
        tapegrad.compiler.set_stance("default")
    eager = tapegrad.compiler.set_stance("force_eager")(lambda: compiler_stance())
    assert compiler_stance() == "default" and eager() == "force_eager"
    with pytest.raises(ValueError, match="invalid torch.compile stance"):
        tapegrad.compiler.set_stance("sometimes")


def compiler_stance():
    from tapegrad.compile import runtime
    return runtime.stance


def test_module_compile_compiles_in_place_keeping_type_and_state_keys():
    model = tapegrad.nn.Sequential(tapegrad.nn.Linear(3, 2), tapegrad.nn.Tanh())
    x = tapegrad.ones(1, 3)
    expected = model(x)
    keys = list(model.state_dict())
    model.compile()
    assert type(model) is tapegrad.nn.Sequential and list(model.state_dict()) == keys
    out = model(x)
    assert_close(out, expected)
    assert model.forward._entries  # the call ran the compiled forward
    out.sum().backward()
    assert model[0].weight.grad is not None
