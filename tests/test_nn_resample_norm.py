"""Resampling (``interpolate``, ``Upsample``, ``affine_grid``, ``grid_sample``), instance and RMS
norm, channel-wise dropout and ``EmbeddingBag``: values, gradients, recorded nodes, reprs and
error messages against PyTorch, and every new primitive against finite differences (float64).
"""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.nn import functional as F

torch = pytest.importorskip("torch")


def _pair(array, requires_grad=False):
    """The same float64 data as a tapegrad and a PyTorch tensor."""
    ours = tapegrad.tensor(array, requires_grad=requires_grad)
    theirs = torch.tensor(array, requires_grad=requires_grad)
    return ours, theirs


def _close(ours, theirs, atol=1e-10):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=atol,
                               rtol=1e-7)


def _raises_like(ours, theirs):
    """Both calls fail with the same exception type and message."""
    with pytest.raises(Exception) as expected:
        theirs()
    with pytest.raises(type(expected.value)) as got:
        ours()
    assert str(got.value) == str(expected.value)


# --------------------------------------------------------------------------------- interpolate

INTERPOLATIONS = [
    ((1, 2, 3, 4), dict(scale_factor=2, mode="nearest")),
    ((1, 2, 3, 4), dict(size=(5, 7), mode="nearest")),
    ((1, 2, 6, 5), dict(scale_factor=0.5, mode="nearest")),
    ((1, 2, 3, 4), dict(scale_factor=(1.7, 2.5), mode="nearest")),
    ((1, 2, 3, 4), dict(scale_factor=2, mode="nearest-exact")),
    ((1, 2, 5, 4), dict(size=(3, 7), mode="nearest-exact")),
    ((2, 1, 3, 4), dict(scale_factor=2, mode="bilinear", align_corners=False)),
    ((2, 1, 3, 4), dict(scale_factor=2, mode="bilinear", align_corners=True)),
    ((1, 2, 5, 6), dict(size=(3, 4), mode="bilinear")),
    ((1, 2, 3, 4), dict(scale_factor=1.6, mode="bilinear", recompute_scale_factor=True)),
    ((1, 2, 4, 4), dict(scale_factor=2, mode="bicubic", align_corners=False)),
    ((1, 2, 4, 3), dict(size=(6, 5), mode="bicubic", align_corners=True)),
    ((2, 3, 4), dict(size=7, mode="linear", align_corners=True)),
    ((2, 3, 4), dict(scale_factor=2.5, mode="linear")),
    ((2, 3, 4), dict(scale_factor=3, mode="nearest")),
    ((2, 3, 4), dict(size=6, mode="nearest-exact")),
    ((1, 1, 2, 3, 2), dict(scale_factor=2, mode="trilinear")),
    ((1, 1, 2, 3, 2), dict(size=(3, 4, 5), mode="nearest")),
    ((1, 2, 4, 6), dict(size=(2, 3), mode="area")),
]


@pytest.mark.parametrize("shape, kwargs", INTERPOLATIONS, ids=str)
def test_interpolate_matches_pytorch(shape, kwargs):
    rng = np.random.default_rng(0)
    ours, theirs = _pair(rng.standard_normal(shape), requires_grad=True)
    out, expected = F.interpolate(ours, **kwargs), torch.nn.functional.interpolate(theirs,
                                                                                    **kwargs)
    assert out.shape == tuple(expected.shape)
    _close(out, expected)
    assert out.grad_fn.name() == expected.grad_fn.name() or kwargs["mode"] == "area"
    weights = rng.standard_normal(tuple(expected.shape))
    (out * tapegrad.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    _close(ours.grad, theirs.grad)


def test_interpolate_float32_picks_pytorch_taps():
    """The index arithmetic runs in float32 for float32 inputs, as ATen's does."""
    array = np.arange(2 * 9 * 11, dtype=np.float32).reshape(1, 2, 9, 11)
    for kwargs in (dict(scale_factor=1.37, mode="nearest"), dict(size=(13, 4), mode="bilinear"),
                   dict(scale_factor=0.7, mode="nearest-exact")):
        out = F.interpolate(tapegrad.tensor(array), **kwargs)
        expected = torch.nn.functional.interpolate(torch.tensor(array), **kwargs)
        np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-6)


@pytest.mark.parametrize("mode, spatial", [("nearest", 1), ("nearest", 2), ("nearest-exact", 2),
                                           ("linear", 1), ("bilinear", 2), ("bicubic", 2),
                                           ("trilinear", 3)])
def test_upsample_primitives_gradcheck(mode, spatial):
    rng = np.random.default_rng(1)
    side = 3 if spatial < 3 else 2
    x = tapegrad.tensor(rng.standard_normal((1, 2) + (side,) * spatial), requires_grad=True)
    kwargs = {} if mode.startswith("nearest") else {"align_corners": False}

    def resize(t):
        return F.interpolate(t, scale_factor=1.7, mode=mode, **kwargs)
    assert gradcheck(resize, (x,))
    assert gradgradcheck(resize, (x,))


@pytest.mark.parametrize("call", [
    lambda F, x: F.interpolate(x, scale_factor=2, mode="linear"),
    lambda F, x: F.interpolate(x[0], scale_factor=2, mode="bilinear"),
    lambda F, x: F.interpolate(x),
    lambda F, x: F.interpolate(x, size=(4, 4), scale_factor=2),
    lambda F, x: F.interpolate(x, size=(4, 4, 4)),
    lambda F, x: F.interpolate(x, scale_factor=(2, 2, 2)),
    lambda F, x: F.interpolate(x, size=(4, 4), recompute_scale_factor=True),
    lambda F, x: F.interpolate(x, scale_factor=2, align_corners=True),
    lambda F, x: F.interpolate(x, size=(2.5, 3)),
    lambda F, x: F.interpolate(x[0, 0], scale_factor=2),
    lambda F, x: F.interpolate(x, scale_factor=0.2),
    lambda F, x: F.interpolate(x[0], size=0, mode="linear"),
])
def test_interpolate_errors_match_pytorch(call):
    x = np.ones((1, 1, 2, 2))
    _raises_like(lambda: call(F, tapegrad.tensor(x)),
                 lambda: call(torch.nn.functional, torch.tensor(x)))


def test_upsample_modules():
    x = np.arange(4.0).reshape(1, 1, 2, 2)
    for make in (lambda m: m.Upsample(scale_factor=2),
                 lambda m: m.Upsample(size=(3, 4), mode="bilinear", align_corners=True),
                 lambda m: m.Upsample(scale_factor=(2, 3), mode="nearest-exact"),
                 lambda m: m.UpsamplingNearest2d(scale_factor=3),
                 lambda m: m.UpsamplingBilinear2d(size=5)):
        ours, theirs = make(nn), make(torch.nn)
        assert repr(ours) == repr(theirs)
        _close(ours(tapegrad.tensor(x)), theirs(torch.tensor(x)))


# ------------------------------------------------------------------- affine_grid, grid_sample

THETA = np.array([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]], [[1.3, 0.4, -0.5], [-0.6, 0.8, 0.7]]])


@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_matches_pytorch(align_corners):
    ours, theirs = _pair(THETA, requires_grad=True)
    grid = F.affine_grid(ours, (2, 3, 4, 5), align_corners=align_corners)
    expected = torch.nn.functional.affine_grid(theirs, (2, 3, 4, 5), align_corners=align_corners)
    _close(grid, expected)
    assert grid.grad_fn.name() == expected.grad_fn.name() == "AffineGridGeneratorBackward0"
    weights = np.random.default_rng(2).standard_normal(tuple(expected.shape))
    (grid * tapegrad.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    _close(ours.grad, theirs.grad)
    assert gradcheck(lambda t: F.affine_grid(t, (2, 1, 3, 2), align_corners=align_corners),
                     (tapegrad.tensor(THETA, requires_grad=True),))


@pytest.mark.parametrize("mode, spatial", [("bilinear", 2), ("nearest", 2), ("bicubic", 2),
                                           ("bilinear", 3), ("nearest", 3)])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_pytorch(mode, spatial, padding_mode, align_corners):
    """4-D inputs sample at (x, y), 5-D inputs at (x, y, z) (trilinear for "bilinear")."""
    rng = np.random.default_rng(3)
    image_shape, grid_shape = ((2, 3, 4, 5), (2, 3, 6, 2)) if spatial == 2 else \
        ((2, 3, 3, 4, 5), (2, 2, 3, 4, 3))
    image, image_t = _pair(rng.standard_normal(image_shape), requires_grad=True)
    grid, grid_t = _pair(rng.uniform(-1.6, 1.6, grid_shape), requires_grad=True)
    kwargs = dict(mode=mode, padding_mode=padding_mode, align_corners=align_corners)
    out = F.grid_sample(image, grid, **kwargs)
    expected = torch.nn.functional.grid_sample(image_t, grid_t, **kwargs)
    _close(out, expected)
    assert out.grad_fn.name() == expected.grad_fn.name() == f"GridSampler{spatial}DBackward0"
    weights = rng.standard_normal(tuple(expected.shape))
    (out * tapegrad.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    _close(image.grad, image_t.grad)
    _close(grid.grad, grid_t.grad)
    small_image = tapegrad.tensor(rng.standard_normal((1, 2) + (3,) * spatial), requires_grad=True)
    small_grid = tapegrad.tensor(rng.uniform(-1.6, 1.6, (1,) + (2,) * spatial + (spatial,)),
                                 requires_grad=True)
    assert gradcheck(lambda x, g: F.grid_sample(x, g, **kwargs), (small_image, small_grid))


def test_grid_sample_double_backward_fails_as_pytorch():
    image = tapegrad.ones(1, 1, 2, 2, requires_grad=True)
    grid = tapegrad.zeros(1, 1, 1, 2, requires_grad=True)
    (grad,) = tapegrad.autograd.grad(F.grid_sample(image, grid, align_corners=False).sum(),
                                     grid, create_graph=True)
    with pytest.raises(RuntimeError, match="grid_sampler_2d_backward is not implemented"):
        grad.sum().backward()


@pytest.mark.parametrize("call", [
    lambda F, x, g, t: F.grid_sample(x, g, mode="cubic", align_corners=False),
    lambda F, x, g, t: F.grid_sample(x, g, padding_mode="wrap", align_corners=False),
    lambda F, x, g, t: F.grid_sample(x, g[..., :1], align_corners=False),
    lambda F, x, g, t: F.grid_sample(x, g[None], align_corners=False),
    lambda F, x, g, t: F.grid_sample(x[None], g[None].expand(1, 1, 2, 2, 3),
                                     mode="bicubic", align_corners=False),
    lambda F, x, g, t: F.grid_sample(x[:1].expand(2, -1, -1, -1)[:1], g.expand(2, -1, -1, -1),
                                     align_corners=False),
    lambda F, x, g, t: F.affine_grid(t[0], (1, 1, 2, 2), align_corners=False),
    lambda F, x, g, t: F.affine_grid(t, (1, 2, 2), align_corners=False),
    lambda F, x, g, t: F.affine_grid(t.long(), (1, 1, 2, 2), align_corners=False),
    lambda F, x, g, t: F.affine_grid(t, (1, 1, 0, 2), align_corners=False),
])
def test_resampling_errors_match_pytorch(call):
    x, g, t = np.ones((1, 1, 3, 3)), np.zeros((1, 2, 2, 2)), THETA[:1]
    _raises_like(lambda: call(F, *map(tapegrad.tensor, (x, g, t))),
                 lambda: call(torch.nn.functional, *map(torch.tensor, (x, g, t))))


def test_grid_sample_warns_without_align_corners():
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior"):
        F.affine_grid(tapegrad.tensor(THETA), (2, 1, 2, 2))


# ----------------------------------------------------------------------------- instance norm

@pytest.mark.parametrize("kind, shape", [("InstanceNorm1d", (2, 3, 5)),
                                         ("InstanceNorm2d", (2, 3, 4, 3)),
                                         ("InstanceNorm2d", (3, 4, 3))])
@pytest.mark.parametrize("options", [{}, {"affine": True},
                                     {"affine": True, "track_running_stats": True},
                                     {"track_running_stats": True, "momentum": None}])
def test_instance_norm_matches_pytorch(kind, shape, options):
    rng = np.random.default_rng(4)
    ours, theirs = getattr(nn, kind)(3, **options).double(), getattr(torch.nn, kind)(
        3, **options).double()
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    if ours.affine:
        scale = rng.standard_normal(3)
        with tapegrad.no_grad(), torch.no_grad():
            ours.weight.copy_(tapegrad.tensor(scale))
            theirs.weight.copy_(torch.tensor(scale))
    x, x_t = _pair(rng.standard_normal(shape) * 3 + 1, requires_grad=True)
    for step in range(2):
        out, expected = ours(x), theirs(x_t)
        _close(out, expected)
        assert out.grad_fn.name() == expected.grad_fn.name()
        if ours.track_running_stats:
            _close(ours.running_mean, theirs.running_mean)
            _close(ours.running_var, theirs.running_var)
    out.sum().backward()
    (expected * 1).sum().backward()
    weights = rng.standard_normal(shape)
    x.grad = x_t.grad = None
    (ours(x) * tapegrad.tensor(weights)).sum().backward()
    (theirs(x_t) * torch.tensor(weights)).sum().backward()
    _close(x.grad, x_t.grad, atol=1e-9)
    ours.eval(), theirs.eval()
    _close(ours(x), theirs(x_t))


def test_instance_norm_gradcheck_and_errors():
    rng = np.random.default_rng(5)
    x = tapegrad.tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    weight = tapegrad.tensor(rng.standard_normal(3), requires_grad=True)
    assert gradcheck(lambda x, w: F.instance_norm(x, weight=w, bias=w * 2), (x, weight))
    for call in (lambda m, T: m.InstanceNorm2d(3)(T.ones(2, 3)),
                 lambda m, T: m.InstanceNorm1d(3, affine=True)(T.ones(2, 4, 5)),
                 lambda m, T: m.InstanceNorm1d(3)(T.ones(2, 3, 1))):
        _raises_like(lambda: call(nn, tapegrad), lambda: call(torch.nn, torch))


# ------------------------------------------------------------------------------- batch norm

def test_batch_norm_argument_errors_match_pytorch():
    for call in (lambda m, F, T: m.BatchNorm1d(4)(T.ones(2, 3, 4)),
                 lambda m, F, T: F.batch_norm(T.ones(2, 3), None, None, training=False),
                 lambda m, F, T: F.batch_norm(T.ones(2, 3), T.zeros(3), None),
                 lambda m, F, T: F.batch_norm(T.ones(2, 3), None, None, T.ones(2),
                                              training=True)):
        _raises_like(lambda: call(nn, F, tapegrad), lambda: call(torch.nn, torch.nn.functional,
                                                                 torch))


# ---------------------------------------------------------------------------------- RMS norm

@pytest.mark.parametrize("shape, options", [((4,), {}), ((3, 4), {"eps": 1e-3}),
                                            ((4,), {"elementwise_affine": False})])
def test_rms_norm_matches_pytorch(shape, options):
    rng = np.random.default_rng(6)
    ours, theirs = nn.RMSNorm(shape, **options), torch.nn.RMSNorm(shape, **options)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    array = rng.standard_normal((2, 3, 4)).astype(np.float32)
    x, x_t = _pair(array, requires_grad=True)
    out, expected = ours(x), theirs(x_t)
    _close(out, expected, atol=1e-6)
    out.sum().backward()
    expected.sum().backward()
    _close(x.grad, x_t.grad, atol=1e-5)
    double = tapegrad.tensor(array.astype(np.float64), requires_grad=True)
    assert gradcheck(lambda t: F.rms_norm(t, (4,)), (double,))


# ----------------------------------------------------------------------- channel-wise dropout

def test_channel_dropout_zeroes_whole_channels():
    x = tapegrad.ones(8, 16, 3, 3, requires_grad=True)
    out = F.dropout2d(x, 0.5)
    per_channel = out.detach().numpy().reshape(8, 16, 9)
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert (per_channel.min(2) == per_channel.max(2)).all()
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), out.detach().numpy())
    assert out.grad_fn.name() == "MulBackward0"
    signal = F.dropout1d(tapegrad.ones(4, 3), 0.5).numpy()
    assert (signal.min(1) == signal.max(1)).all()
    assert F.dropout2d(x, 1.0).abs().sum().item() == 0
    assert F.dropout3d(x.unsqueeze(0), 0.3, training=False).equal(x.unsqueeze(0))


def test_dropout_modules_and_errors():
    for make in (lambda m: m.Dropout1d(), lambda m: m.Dropout2d(0.2, inplace=True),
                 lambda m: m.Dropout3d(0.7)):
        assert repr(make(nn)) == repr(make(torch.nn))
    layer = nn.Dropout2d(0.9).eval()
    x = tapegrad.ones(2, 3, 4, 4)
    assert layer(x) is x
    _raises_like(lambda: nn.Dropout1d()(tapegrad.ones(2, 3, 4, 5)),
                 lambda: torch.nn.Dropout1d()(torch.ones(2, 3, 4, 5)))
    _raises_like(lambda: nn.Dropout2d(1.5), lambda: torch.nn.Dropout2d(1.5))
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        F.dropout2d(tapegrad.ones(2, 3, 4))


# ----------------------------------------------------------------------------- EmbeddingBag

TEXT = np.array([3, 5, 7, 2, 9, 4, 4, 8, 1, 6])
OFFSETS = np.array([0, 3, 5, 9])

BAGS = [
    dict(mode="mean"),
    dict(mode="sum"),
    dict(mode="max"),
    dict(mode="sum", padding_idx=4),
    dict(mode="mean", padding_idx=4),
    dict(mode="max", padding_idx=-6),
    dict(mode="mean", include_last_offset=True),
]


@pytest.mark.parametrize("options", BAGS, ids=str)
@pytest.mark.parametrize("two_d", [False, True])
def test_embedding_bag_matches_pytorch(options, two_d):
    rng = np.random.default_rng(7)
    table = rng.standard_normal((10, 3))
    ours = nn.EmbeddingBag.from_pretrained(tapegrad.tensor(table), freeze=False, **options)
    theirs = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(table), freeze=False, **options)
    assert repr(ours) == repr(theirs)
    if two_d:
        if options.get("include_last_offset"):
            return
        args = (tapegrad.tensor(TEXT[:8].reshape(2, 4)),), (torch.tensor(TEXT[:8].reshape(2, 4)),)
    else:
        offsets = np.array([0, 3, 3, 5, 9])  # an empty bag too
        if options.get("include_last_offset"):
            offsets = np.array([0, 3, 3, 5, 10])
        args = ((tapegrad.tensor(TEXT), tapegrad.tensor(offsets)),
                (torch.tensor(TEXT), torch.tensor(offsets)))
    out, expected = ours(*args[0]), theirs(*args[1])
    _close(out, expected)
    assert out.grad_fn.name() == expected.grad_fn.name() == "EmbeddingBagBackward0"
    weights = rng.standard_normal(tuple(expected.shape))
    (out * tapegrad.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    _close(ours.weight.grad, theirs.weight.grad)


def test_embedding_bag_scales_gradients_by_frequency():
    """Each row's gradient divided by how often the batch picked it, as ``embedding`` does
    (PyTorch's own kernel divides some rows by another row's count)."""
    table = tapegrad.ones(10, 3, requires_grad=True)
    F.embedding_bag(tapegrad.tensor(TEXT), table, tapegrad.tensor(OFFSETS), mode="sum",
                    scale_grad_by_freq=True).sum().backward()
    np.testing.assert_array_equal(table.grad.numpy()[:, 0], [0, 1, 1, 1, 1, 1, 1, 1, 1, 1])


def test_embedding_bag_per_sample_weights():
    rng = np.random.default_rng(8)
    table, sample_weights = rng.standard_normal((10, 3)), rng.standard_normal(len(TEXT))
    ours_w, theirs_w = _pair(table, requires_grad=True)
    ours_s, theirs_s = _pair(sample_weights, requires_grad=True)
    out = F.embedding_bag(tapegrad.tensor(TEXT), ours_w, tapegrad.tensor(OFFSETS), mode="sum",
                          per_sample_weights=ours_s, padding_idx=4)
    expected = torch.nn.functional.embedding_bag(torch.tensor(TEXT), theirs_w,
                                                 torch.tensor(OFFSETS), mode="sum",
                                                 per_sample_weights=theirs_s, padding_idx=4)
    _close(out, expected)
    (out * out).sum().backward()
    (expected * expected).sum().backward()
    _close(ours_w.grad, theirs_w.grad)
    _close(ours_s.grad, theirs_s.grad)

    def bag(weight, sample_weights):
        return F.embedding_bag(tapegrad.tensor(TEXT), weight, tapegrad.tensor(OFFSETS),
                               mode="sum", per_sample_weights=sample_weights)
    ours_w.grad = ours_s.grad = None
    assert gradcheck(bag, (ours_w, ours_s))
    assert gradgradcheck(bag, (ours_w, ours_s))
    for mode in ("mean", "max"):
        assert gradcheck(lambda w: F.embedding_bag(tapegrad.tensor(TEXT), w,
                                                   tapegrad.tensor(OFFSETS), mode=mode),
                         (ours_w,))


@pytest.mark.parametrize("call", [
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT).view(2, 5), w, T.tensor(OFFSETS)),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS).view(2, 2)),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS), mode="median"),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS), mode="max",
                                    scale_grad_by_freq=True),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS), mode="mean",
                                    per_sample_weights=T.ones(10, dtype=T.float64)),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS),
                                    per_sample_weights=T.ones(3, dtype=T.float64)),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w, T.tensor(OFFSETS) + 1),
    lambda F, T, w: F.embedding_bag(T.tensor(TEXT), w[0], T.tensor(OFFSETS)),
])
def test_embedding_bag_errors_match_pytorch(call):
    table = np.ones((10, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _raises_like(lambda: call(F, tapegrad, tapegrad.tensor(table)),
                     lambda: call(torch.nn.functional, torch, torch.tensor(table)))
