"""PyTorch API surface that real programs reach for beyond the operations: legacy constructors and
types, device errors, deprecated autograd spellings, ``torch.backends``, the exported names."""
import warnings

import numpy as np
import pytest

import tapegrad


def _error(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001  (the type is part of what is compared)
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("key", [0, slice(0, 2), (slice(None), 0), slice(None), Ellipsis,
                                 "index", "mask", "slice_then_index"])
def test_setitem_on_a_leaf_raises_torchs_error(key):
    torch = pytest.importorskip("torch")

    def attempt(T):
        tensor_keys = {"index": T.tensor([0]), "mask": T.tensor([True, False, True]),
                       "slice_then_index": (slice(0, 1), T.tensor([0]))}
        resolved = tensor_keys[key] if isinstance(key, str) else key
        leaf = T.ones(3, requires_grad=True) if key == "mask" else T.ones(3, 3, requires_grad=True)
        return _error(lambda: leaf.__setitem__(resolved, 2.0))

    assert attempt(tapegrad) == attempt(torch)
    assert attempt(tapegrad)[0] is RuntimeError


def test_setitem_on_a_leaf_is_allowed_without_grad():
    leaf = tapegrad.ones(3, requires_grad=True)
    with tapegrad.no_grad():
        leaf[0] = 2.0
    assert leaf.tolist() == [2.0, 1.0, 1.0] and leaf.requires_grad


@pytest.mark.parametrize("move", [lambda t: t.to("cuda"), lambda t: t.to("cuda:0"),
                                  lambda t: t.to(device="cuda"), lambda t: t.cuda(),
                                  lambda t: t.to("mps")])
def test_moving_to_an_accelerator_raises_torchs_error(move):
    torch = pytest.importorskip("torch")
    assert _error(lambda: move(tapegrad.ones(2))) == _error(lambda: move(torch.ones(2)))


def test_moving_to_the_cpu_is_a_no_op():
    t = tapegrad.ones(2)
    assert t.to("cpu") is t and t.to(tapegrad.device("cpu")) is t


@pytest.mark.parametrize("build", [
    lambda T: T.Tensor([1, 2]), lambda T: T.Tensor((2, 3)), lambda T: T.Tensor(),
    lambda T: T.FloatTensor([[1.5, 2]]), lambda T: T.DoubleTensor([1, 2]),
    lambda T: T.LongTensor([1, 2]), lambda T: T.IntTensor([1.7, -2.2]),
    lambda T: T.BoolTensor([1, 0]), lambda T: T.ones(2).type(T.LongTensor),
    lambda T: T.ones(2).type("torch.DoubleTensor"),
])
def test_legacy_constructors_build_what_torch_builds(build):
    torch = pytest.importorskip("torch")
    ours, theirs = build(tapegrad), build(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("build", [
    lambda T: T.Tensor(2, 3), lambda T: T.Tensor(4), lambda T: T.Tensor(T.Size([2, 1])),
    lambda T: T.LongTensor(3, 2),
])
def test_legacy_constructors_with_sizes_make_uninitialized_tensors(build):
    torch = pytest.importorskip("torch")
    ours, theirs = build(tapegrad), build(torch)
    assert tuple(ours.shape) == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    assert not ours.requires_grad


def test_legacy_types_check_the_dtype_and_print_as_torchs():
    torch = pytest.importorskip("torch")
    for name in ("FloatTensor", "DoubleTensor", "LongTensor", "BoolTensor"):
        assert repr(getattr(tapegrad, name)) == repr(getattr(torch, name))
        for make in (lambda T: T.ones(2), lambda T: T.ones(2, dtype=T.float64),
                     lambda T: T.arange(2)):
            assert isinstance(make(tapegrad), getattr(tapegrad, name)) == \
                isinstance(make(torch), getattr(torch, name))
    assert _error(lambda: tapegrad.Tensor(2.5)) == _error(lambda: torch.Tensor(2.5))


def test_variable_is_a_detached_tensor_with_the_flag():
    base = tapegrad.ones(2) * 3
    v = tapegrad.autograd.Variable(base, requires_grad=True)
    assert v.is_leaf and v.requires_grad and v.tolist() == [3.0, 3.0]
    assert isinstance(tapegrad.ones(1), tapegrad.autograd.Variable)
    assert tapegrad.autograd.Variable(tapegrad.ones(1)).requires_grad is False


def test_grad_accepts_the_deprecated_only_inputs_flag():
    x = tapegrad.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (g,) = tapegrad.autograd.grad((x * 2).sum(), x, only_inputs=True)
    assert g.tolist() == [2.0, 2.0]
    with pytest.warns(FutureWarning, match="only_inputs argument is deprecated"):
        tapegrad.autograd.grad((x * 2).sum(), x, only_inputs=False)


def test_inference_mode_takes_mode_as_a_keyword():
    x = tapegrad.ones(2, requires_grad=True)
    with tapegrad.inference_mode(mode=False):
        assert (x * 2).requires_grad and not tapegrad.is_inference_mode_enabled()
    with tapegrad.inference_mode(mode=True):
        assert not (x * 2).requires_grad and tapegrad.is_inference_mode_enabled()


def test_backends_report_no_accelerators_and_take_flags():
    torch = pytest.importorskip("torch")
    import tapegrad.backends.cudnn as cudnn
    assert tapegrad.backends.mps.is_available() is torch.backends.mps.is_available() is False
    assert tapegrad.backends.mps.is_built() is False
    assert cudnn.is_available() is False and cudnn.version() is None
    for flag in ("deterministic", "benchmark", "enabled"):
        assert getattr(cudnn, flag) == getattr(torch.backends.cudnn, flag)
    cudnn.deterministic, cudnn.benchmark = True, True
    try:
        assert tapegrad.backends.cudnn.deterministic and tapegrad.backends.cudnn.benchmark
    finally:
        cudnn.deterministic, cudnn.benchmark = False, False


@pytest.mark.parametrize("backend", ["cudnn", "mkldnn"])
def test_backend_flags_are_set_for_a_with_block_and_restored(backend):
    """``with torch.backends.cudnn.flags(enabled=False):`` (around double backward through an
    RNN): inside, the given flags or the context manager's defaults; after, the old values."""
    module = getattr(tapegrad.backends, backend)
    module.deterministic = True
    try:
        with module.flags(allow_tf32=False) as entered:
            assert entered is None
            assert (module.enabled, module.deterministic, module.allow_tf32) == (False, False, False)
        assert (module.enabled, module.deterministic, module.allow_tf32) == (True, True, True)
        with pytest.raises(TypeError, match="unexpected keyword argument 'benchmark_limt'"):
            with module.flags(benchmark_limt=3):
                pass
        assert module.enabled is True
    finally:
        module.deterministic = False


def test_exports_follow_torch_functions_and_methods():
    """The op table's functions are ``torch.*`` names unless PyTorch has them only as methods;
    every one (but the stacking and broadcasting helpers) is a Tensor method."""
    torch = pytest.importorskip("torch")
    for name in tapegrad.ops.METHOD_ONLY:
        assert not hasattr(tapegrad, name) and not hasattr(torch, name), name
        assert hasattr(tapegrad.ones(1), name) and hasattr(torch.ones(1), name), name
    for name in ("flip", "roll", "tril", "cumsum", "sort", "topk", "scatter", "index_add",
                 "einsum", "hstack", "broadcast_tensors", "masked_fill", "cross", "det",
                 "inverse", "norm", "log1p", "multinomial"):
        assert hasattr(tapegrad, name) and hasattr(torch, name), name
    for name in ("hstack", "vstack", "broadcast_tensors", "broadcast_shapes", "einsum"):
        assert not hasattr(tapegrad.Tensor, name) and not hasattr(torch.Tensor, name), name
    # ``tapegrad.layout`` is PyTorch's class of ``strided``, not the module ``ops.layout``
    assert not hasattr(tapegrad, "registry") and isinstance(tapegrad.strided, tapegrad.layout)


def test_named_results_live_on_return_types():
    x = tapegrad.tensor([[3.0, 1.0, 2.0]])
    for name, result in [("sort", x.sort()), ("topk", x.topk(1)), ("kthvalue", x.kthvalue(1)),
                         ("median", x.median(1)), ("cummax", x.cummax(1)),
                         ("aminmax", tapegrad.aminmax(x))]:
        assert type(result) is getattr(tapegrad.return_types, name)
        assert repr(result).startswith(f"torch.return_types.{name}(")


def test_is_inference_marks_tensors_made_in_inference_mode():
    x = tapegrad.ones(2)
    with tapegrad.inference_mode():
        made_by_op, made_by_factory = x * 2, tapegrad.zeros(2)
    with tapegrad.no_grad():
        under_no_grad = x * 2
    assert not x.is_inference()
    assert made_by_op.is_inference() and made_by_factory.is_inference()
    assert not under_no_grad.is_inference()


def test_weight_norm_primitives_are_top_level_names_as_in_pytorch():
    """``torch.norm_except_dim`` and ``torch._weight_norm``, which weight-norm code calls."""
    v = tapegrad.arange(1.0, 7.0).view(2, 3)
    np.testing.assert_allclose(tapegrad.norm_except_dim(v, 2, 0).numpy(),
                               [[14 ** 0.5], [77 ** 0.5]], rtol=1e-6)
    w = tapegrad._weight_norm(v, tapegrad.ones(2, 1), 0)
    np.testing.assert_allclose(tapegrad.linalg.vector_norm(w, dim=1).numpy(), [1, 1], rtol=1e-6)
