"""Checks of rms_norm/layer_norm and scaled_dot_product_attention, ``Module.type``, devices
(``with torch.device``, ``device=`` of factories and layers, ``meta`` refused), distributions'
unimplemented moments and ``__all__``, and legacy warnings (``volatile``, uint8 masks, no degrees
of freedom): each case on tapegrad and on PyTorch, with the same values or the same exception."""
import sys
import warnings

import numpy as np
import pytest

import tapegrad

from same_as_torch import assert_equal, assert_same, outcome

torch = pytest.importorskip("torch")


def assert_same_as_torch(case):
    assert_same(case, torch)



def _warnings_of(lib, case):
    """(category, message, file) of each warning ``case(lib)`` gives, PyTorch's build-path
    suffix stripped."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        case(lib)
    return [(w.category.__name__, str(w.message).split(" (Triggered")[0], w.filename)
            for w in caught]


def _assert_same_warnings(case):
    ours, theirs = _warnings_of(tapegrad, case), _warnings_of(torch, case)
    assert [w[:2] for w in ours] == [w[:2] for w in theirs]
    assert all(w[2] == __file__ for w in ours), ours  # the user's line, not tapegrad's


# ------------------------------------------------------------------------ rms_norm, layer_norm

NORM_CASES = {
    "rms-shape": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), (2, 4)),
    "rms-shape-1d": lambda t: t.nn.functional.rms_norm(t.ones(3), (4,)),
    "layer-shape": lambda t: t.nn.functional.layer_norm(t.ones(2, 3), (2, 4)),
    "rms-weight": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), (3,), weight=t.ones(4)),
    "rms-weight-2d": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), (3,), t.ones(1, 3)),
    "rms-weight-before-shape": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), (4,), t.ones(5)),
    "layer-weight": lambda t: t.nn.functional.layer_norm(t.ones(2, 3), (3,), weight=t.ones(4)),
    "layer-bias": lambda t: t.nn.functional.layer_norm(t.ones(2, 3), (3,), bias=t.ones(4)),
    "rms-too-few-dims": lambda t: t.nn.functional.rms_norm(t.ones(3), (2, 3)),
    "layer-too-few-dims": lambda t: t.nn.functional.layer_norm(t.ones(3), (2, 3)),
    "rms-empty-shape": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), ()),
    "layer-empty-shape": lambda t: t.nn.functional.layer_norm(t.ones(2, 3), []),
    "rms-int-shape": lambda t: t.nn.functional.rms_norm(t.ones(2, 3), 3),
    "layer-int-shape": lambda t: t.nn.functional.layer_norm(t.ones(2, 3), 3),
    "rms-long": lambda t: t.nn.functional.rms_norm(t.ones(2, 3, dtype=t.int64), (3,)),
    "RMSNorm-shape": lambda t: t.nn.RMSNorm(3)(t.ones(2, 4)),
    "rms-values": lambda t: t.nn.functional.rms_norm(
        t.arange(6.).view(2, 3), [3], t.tensor([1., 2., 3.]), eps=1e-3),
}


@pytest.mark.parametrize("name", NORM_CASES)
def test_normalization_checks_match_pytorch(name):
    assert_same_as_torch(NORM_CASES[name])


def test_rms_norm_keeps_the_input_dtype_with_a_weight_of_another():
    x = tapegrad.arange(6.).view(2, 3).requires_grad_()
    sys.modules["tapegrad.tensor"]._warned.discard("rms_norm dtype")  # warned once a process
    with pytest.warns(UserWarning, match="Mismatch dtype between input and weight: input dtype "
                                         "= float, weight dtype = double"):
        out = tapegrad.nn.functional.rms_norm(x, (3,), tapegrad.ones(3, dtype=tapegrad.float64))
    assert out.dtype == tapegrad.float32 and type(out.grad_fn).__name__ == "ToCopyBackward0"
    same = tapegrad.nn.functional.rms_norm(x, (3,), tapegrad.ones(3))
    assert type(same.grad_fn).__name__ == "MulBackward0"
    np.testing.assert_allclose(out.detach().numpy(), same.detach().numpy())


# ------------------------------------------------------------------ scaled_dot_product_attention

def _sdpa(t, q_heads=4, k_heads=2, v_heads=None, mask_dtype=None, query_dtype=None, **kwargs):
    q = t.arange(q_heads * 6.).view(1, q_heads, 3, 2) / 10
    k = t.arange(k_heads * 10.).view(1, k_heads, 5, 2).cos()
    v = t.arange((v_heads or k_heads) * 10.).view(1, v_heads or k_heads, 5, 2).sin()
    if query_dtype is not None:
        q, k, v = q.to(query_dtype), k.to(query_dtype), v.to(query_dtype)
    mask = None if mask_dtype is None else (t.arange(15.).view(3, 5) % 3 - 1).to(mask_dtype)
    return t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask, **kwargs)


SDPA_CASES = {
    "double-mask-float-query": lambda t: _sdpa(t, 2, 2, mask_dtype=t.float64),
    "half-mask-float-query": lambda t: _sdpa(t, 2, 2, mask_dtype=t.float16),
    "long-mask": lambda t: _sdpa(t, 2, 2, mask_dtype=t.int64),
    "float-mask-double-query": lambda t: _sdpa(t, 2, 2, mask_dtype=t.float32,
                                               query_dtype=t.float64),
    "gqa": lambda t: _sdpa(t, 4, 2, enable_gqa=True),
    "gqa-mask": lambda t: _sdpa(t, 4, 2, mask_dtype=t.bool, enable_gqa=True),
    "gqa-key-and-value-heads-differ": lambda t: _sdpa(t, 4, 4, 2, enable_gqa=True),
    "gqa-not-dividing": lambda t: _sdpa(t, 4, 3, enable_gqa=True),
    "gqa-more-key-heads": lambda t: _sdpa(t, 4, 8, enable_gqa=True),
    "no-gqa-heads-differ": lambda t: _sdpa(t, 4, 2),
    "gqa-2d": lambda t: t.nn.functional.scaled_dot_product_attention(
        t.ones(3, 2), t.ones(5, 2), t.ones(5, 2), enable_gqa=True),
}


@pytest.mark.parametrize("name", SDPA_CASES)
def test_attention_checks_match_pytorch(name):
    assert_same_as_torch(SDPA_CASES[name])


def test_grouped_query_attention_gradients_match_pytorch():
    def grads(t):
        q = (t.arange(24.).view(1, 4, 3, 2) / 10).requires_grad_()
        k = t.arange(20.).view(1, 2, 5, 2).cos().requires_grad_()
        v = t.arange(20.).view(1, 2, 5, 2).sin().requires_grad_()
        t.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True).pow(2).sum() \
            .backward()
        return q.grad, k.grad, v.grad
    assert_same_as_torch(grads)


# ----------------------------------------------------------------------------------- Module.type

@pytest.mark.parametrize("dst", ["float64", "DoubleTensor", "'torch.DoubleTensor'", "float32"])
def test_module_type_converts_parameters_and_buffers(dst):
    def case(t):
        model = t.nn.Sequential(t.nn.Linear(2, 3), t.nn.BatchNorm1d(3))
        model(t.ones(2, 2)).sum().backward()
        target = "torch.DoubleTensor" if dst.startswith("'") else getattr(t, dst)
        assert model.type(target) is model
        return tuple(str(x.dtype) for x in (model[0].weight, model[0].weight.grad,
                                            model[1].running_mean, model[1].num_batches_tracked))
    assert outcome(tapegrad, case) == outcome(torch, case)


def test_module_type_refuses_an_integer_type_for_parameters_that_require_grad():
    assert_same_as_torch(lambda t: t.nn.Linear(2, 3).type(t.int32))
    model = tapegrad.nn.Linear(2, 3).requires_grad_(False)
    assert model.type(tapegrad.int32).weight.dtype == tapegrad.int32


# ---------------------------------------------------------------------------------------- devices

def test_device_context_sets_the_default_device_inside_the_block():
    def case(t):
        seen = [str(t.get_default_device())]
        with t.device("cpu:0") as d:
            seen += [str(d), str(t.get_default_device()), str(t.ones(1).device)]
            with t.device("cpu"):
                seen.append(str(t.get_default_device()))
            seen.append(str(t.get_default_device()))
        return tuple(seen + [str(t.get_default_device())])
    assert outcome(tapegrad, case) == outcome(torch, case)


META_PATHS = {
    "with": lambda: tapegrad.device("meta").__enter__(),
    "factory": lambda: tapegrad.ones(2, device="meta"),
    "set_default_device": lambda: tapegrad.set_default_device("meta"),
    "Module.to": lambda: tapegrad.nn.Linear(2, 3).to("meta"),
    "Module.to-keyword": lambda: tapegrad.nn.Linear(2, 3).to(device="meta"),
    "Module.to-device": lambda: tapegrad.nn.Linear(2, 3).to(tapegrad.device("meta"), None),
    "Linear": lambda: tapegrad.nn.Linear(4, 3, device="meta"),
    "Bilinear": lambda: tapegrad.nn.Bilinear(2, 2, 3, device="meta"),
    "Conv2d": lambda: tapegrad.nn.Conv2d(1, 2, 3, device="meta"),
    "ConvTranspose1d": lambda: tapegrad.nn.ConvTranspose1d(1, 2, 3, device="meta"),
    "Embedding": lambda: tapegrad.nn.Embedding(5, 2, device="meta"),
    "EmbeddingBag": lambda: tapegrad.nn.EmbeddingBag(5, 2, device="meta"),
    "LayerNorm": lambda: tapegrad.nn.LayerNorm(3, device="meta"),
    "RMSNorm": lambda: tapegrad.nn.RMSNorm(3, device="meta"),
    "GroupNorm": lambda: tapegrad.nn.GroupNorm(1, 3, device="meta"),
    "BatchNorm1d": lambda: tapegrad.nn.BatchNorm1d(3, device="meta"),
    "BatchNorm-no-affine": lambda: tapegrad.nn.BatchNorm1d(3, affine=False, device="meta"),
    "PReLU": lambda: tapegrad.nn.PReLU(device="meta"),
    "LSTM": lambda: tapegrad.nn.LSTM(2, 3, proj_size=2, device="meta"),
    "GRUCell": lambda: tapegrad.nn.GRUCell(2, 3, device="meta"),
    "MultiheadAttention": lambda: tapegrad.nn.MultiheadAttention(4, 2, kdim=3, device="meta"),
    "TransformerEncoderLayer": lambda: tapegrad.nn.TransformerEncoderLayer(4, 2, device="meta"),
    "LazyLinear": lambda: tapegrad.nn.LazyLinear(3, device="meta"),
    "LazyConv2d": lambda: tapegrad.nn.LazyConv2d(3, 2, device="meta"),
    "LazyBatchNorm1d": lambda: tapegrad.nn.LazyBatchNorm1d(device="meta"),
}


@pytest.mark.parametrize("path", META_PATHS)
def test_every_path_to_the_meta_device_gives_meta_tensors(path):
    """Factories, ``with torch.device("meta")``, ``set_default_device`` and every layer's
    ``device=`` put tensors on the meta device: shapes and dtypes, no data."""
    try:
        made = META_PATHS[path]()
        if path in ("with", "set_default_device"):
            made = tapegrad.ones(2)
    finally:
        if path == "with":
            tapegrad.device("meta").__exit__(None, None, None)
        elif path == "set_default_device":
            tapegrad.set_default_device("cpu")
    tensors = [made] if isinstance(made, tapegrad.Tensor) else [*made.parameters(),
                                                               *made.buffers()]
    assert tensors and all(t.is_meta and str(t.device) == "meta" for t in tensors)
    assert tapegrad.ones(1).device == tapegrad.device("cpu")  # nothing leaked out


def test_layers_accept_the_cpu_device():
    layer = tapegrad.nn.Linear(4, 3, device="cpu", dtype=tapegrad.float64)
    assert layer.weight.dtype == tapegrad.float64 and str(layer.weight.device) == "cpu"
    assert tapegrad.nn.LSTM(2, 3, device=tapegrad.device("cpu")).weight_ih_l0.shape == (12, 2)


# ---------------------------------------------------------------------------------- distributions

def _transformed(t):
    base = t.distributions.Normal(t.tensor([0.5]), t.tensor([1.0]))
    return t.distributions.TransformedDistribution(
        base, [t.distributions.transforms.TanhTransform()])


@pytest.mark.parametrize("moment", ["mean", "variance", "stddev", "mode"])
def test_unimplemented_moments_raise_as_in_pytorch(moment):
    def case(t):
        return getattr(_transformed(t), moment)
    ours, theirs = outcome(tapegrad, case), outcome(torch, case)
    assert ours[0] == theirs[0] == "NotImplementedError"
    assert ours[1].replace("tapegrad", "torch") == theirs[1]


def test_distributions_star_import_exports_pytorchs_names():
    assert set(tapegrad.distributions.__all__) == set(torch.distributions.__all__)
    names = {}
    exec("from tapegrad.distributions import *", names)  # noqa: S102
    assert "transforms" not in names and "constraints" not in names


# ------------------------------------------------------------------------------- legacy warnings

def _variable(t, **kwargs):
    return t.autograd.Variable(t.ones(2), **kwargs)


def _volatile_read(t):
    return _variable(t).volatile


def _volatile_write(t):
    _variable(t).volatile = False


def _byte_mask(t):
    return t.tensor([1, 0, 1], dtype=t.uint8)


def _byte_mask_assign(t):
    x = t.zeros(3, 2)
    x[_byte_mask(t)] = t.tensor([[1., 2.], [3., 4.]])
    return x


def _byte_mask_fill(t):
    x = t.zeros(3)
    x[_byte_mask(t)] = 5.0
    return x


LEGACY_CASES = {
    "Variable-volatile": lambda t: _variable(t, volatile=True),
    "Variable-not-volatile": lambda t: _variable(t, volatile=False),
    "Variable-volatile-requires-grad": lambda t: _variable(t, volatile=True, requires_grad=True),
    "read-volatile": _volatile_read,
    "write-volatile": _volatile_write,
    "byte-mask-index": lambda t: t.arange(6.).view(3, 2)[_byte_mask(t)],
    "byte-mask-index-column": lambda t: t.arange(6.).view(3, 2)[_byte_mask(t), 1],
    "byte-mask-0d": lambda t: t.arange(6.).view(3, 2)[t.tensor(1, dtype=t.uint8)],
    "byte-mask-wrong-shape": lambda t: t.arange(6.).view(3, 2)[t.tensor([1, 0], dtype=t.uint8)],
    "byte-mask-assign": _byte_mask_assign,
    "byte-mask-fill": _byte_mask_fill,
    "bool-mask-fill": lambda t: t.zeros(3).index_put_((_byte_mask(t).bool(),), t.tensor(5.)),
}


@pytest.mark.parametrize("name", LEGACY_CASES)
def test_legacy_idioms_match_pytorch(name):
    assert_same_as_torch(LEGACY_CASES[name])


@pytest.mark.parametrize("name", LEGACY_CASES)
def test_legacy_warnings_match_pytorch_at_the_users_line(name):
    def case(t):
        try:
            LEGACY_CASES[name](t)
        except (RuntimeError, ValueError, IndexError):
            pass
    _assert_same_warnings(case)


SPREAD_CASES = {
    "std": lambda t: t.ones(1).std(),
    "torch.var": lambda t: t.var(t.ones(1), 0),
    "var_mean": lambda t: t.var_mean(t.ones(2, 1), 1),
    "std_mean": lambda t: t.std_mean(t.ones(1)),
    "correction": lambda t: t.std(t.ones(3), correction=3),
}


@pytest.mark.parametrize("name", SPREAD_CASES)
def test_no_degrees_of_freedom_warns_at_the_users_line(name):
    _assert_same_warnings(SPREAD_CASES[name])
