"""Losses and ``nn.functional``: values and gradients against PyTorch, gradcheck, stability."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck

F = nn.functional
RNG = np.random.default_rng(0)
LOGITS = RNG.standard_normal((6, 4))
LABELS = np.array([0, 3, 1, 1, 2, 3])
LABELS_IGNORED = np.array([0, -100, 1, 1, 2, -100])
WEIGHT = np.array([0.5, 2.0, 1.0, 0.25])
PROBS = RNG.dirichlet(np.ones(4), size=6)
SPATIAL_LOGITS = RNG.standard_normal((2, 3, 2, 2))
SPATIAL_LABELS = RNG.integers(0, 3, (2, 2, 2))
VALUES = RNG.standard_normal((3, 5))
TARGETS = RNG.standard_normal((3, 5))
UNIT = 1 / (1 + np.exp(-VALUES))
BINARY = RNG.integers(0, 2, (3, 5)).astype(float)

# name: (function name, input, other arrays (float ones become tensors), keyword arguments)
LOSSES = {
    "mse": ("mse_loss", VALUES, (TARGETS,), {}),
    "mse-sum": ("mse_loss", VALUES, (TARGETS,), {"reduction": "sum"}),
    "mse-none": ("mse_loss", VALUES, (TARGETS,), {"reduction": "none"}),
    "l1": ("l1_loss", VALUES, (TARGETS,), {}),
    "l1-none": ("l1_loss", VALUES, (TARGETS,), {"reduction": "none"}),
    "ce": ("cross_entropy", LOGITS, (LABELS,), {}),
    "ce-sum": ("cross_entropy", LOGITS, (LABELS,), {"reduction": "sum"}),
    "ce-none": ("cross_entropy", LOGITS, (LABELS,), {"reduction": "none"}),
    "ce-weight": ("cross_entropy", LOGITS, (LABELS,), {"weight": WEIGHT}),
    "ce-ignore": ("cross_entropy", LOGITS, (LABELS_IGNORED,), {}),
    "ce-ignore-class": ("cross_entropy", LOGITS, (LABELS,), {"ignore_index": 3}),
    "ce-smooth": ("cross_entropy", LOGITS, (LABELS,), {"label_smoothing": 0.2}),
    "ce-smooth-weight-ignore": ("cross_entropy", LOGITS, (LABELS_IGNORED,),
                                {"label_smoothing": 0.1, "weight": WEIGHT}),
    "ce-smooth-none": ("cross_entropy", LOGITS, (LABELS_IGNORED,),
                       {"label_smoothing": 0.3, "reduction": "none"}),
    "ce-probs": ("cross_entropy", LOGITS, (PROBS,), {}),
    "ce-probs-none": ("cross_entropy", LOGITS, (PROBS,), {"reduction": "none"}),
    "ce-probs-smooth-weight": ("cross_entropy", LOGITS, (PROBS,),
                               {"label_smoothing": 0.1, "weight": WEIGHT}),
    "ce-1d": ("cross_entropy", LOGITS[0], (np.array(2),), {}),
    "ce-spatial": ("cross_entropy", SPATIAL_LOGITS, (SPATIAL_LABELS,), {}),
    "ce-spatial-none": ("cross_entropy", SPATIAL_LOGITS, (SPATIAL_LABELS,),
                        {"reduction": "none"}),
    "nll": ("nll_loss", LOGITS, (LABELS,), {}),
    "nll-weight-ignore": ("nll_loss", LOGITS, (LABELS_IGNORED,), {"weight": WEIGHT}),
    "bce": ("binary_cross_entropy", UNIT, (BINARY,), {}),
    "bce-weight": ("binary_cross_entropy", UNIT, (BINARY,), {"weight": VALUES[0] ** 2}),
    "bce-soft-none": ("binary_cross_entropy", UNIT, (np.ascontiguousarray(UNIT[::-1]),), {"reduction": "none"}),
    "bce-logits": ("binary_cross_entropy_with_logits", VALUES, (BINARY,), {}),
    "bce-logits-pos": ("binary_cross_entropy_with_logits", VALUES, (BINARY,),
                       {"pos_weight": np.array([1.0, 2.0, 0.5, 3.0, 1.5]), "reduction": "sum"}),
    "bce-logits-weight-none": ("binary_cross_entropy_with_logits", VALUES, (UNIT,),
                               {"weight": VALUES[0] ** 2, "reduction": "none"}),
    "smooth-l1": ("smooth_l1_loss", VALUES, (TARGETS,), {}),
    "smooth-l1-beta-none": ("smooth_l1_loss", VALUES, (TARGETS,),
                            {"beta": 0.5, "reduction": "none"}),
    "smooth-l1-beta0": ("smooth_l1_loss", VALUES, (TARGETS,), {"beta": 0.0}),
    "huber": ("huber_loss", VALUES, (TARGETS,), {"delta": 0.5}),
    "huber-sum": ("huber_loss", VALUES, (TARGETS,), {"reduction": "sum"}),
    "kl-batchmean": ("kl_div", np.log(PROBS), (PROBS[::-1].copy(),), {"reduction": "batchmean"}),
    "kl-log-target-sum": ("kl_div", np.log(PROBS), (np.log(PROBS[::-1]),),
                          {"reduction": "sum", "log_target": True}),
    "cosine-embedding": ("cosine_embedding_loss", VALUES, (TARGETS, np.array([1, -1, 1])),
                         {"margin": 0.1}),
}

# Composites here, single (or fused) nodes in PyTorch: the values and gradients still agree.
OTHER_NODES = {"sdpa", "sdpa-causal", "sdpa-float-mask", "avg-pool", "adaptive-avg-pool"}

# name: (function name, input, other arrays, keyword arguments): more of nn.functional
FUNCTIONS = {
    "pad": ("pad", VALUES, (), {"pad": (1, 2, -1, 1), "value": 0.5}),
    "normalize": ("normalize", VALUES, (), {"dim": 1}),
    "normalize-p1": ("normalize", VALUES, (), {"p": 1, "dim": 0}),
    "cosine-similarity": ("cosine_similarity", VALUES, (TARGETS,), {"dim": 1}),
    "cosine-similarity-broadcast": ("cosine_similarity", VALUES, (TARGETS[:1],), {}),
    "sdpa": ("scaled_dot_product_attention", LOGITS.reshape(2, 3, 4),
             (LOGITS.reshape(2, 3, 4)[::-1].copy(), SPATIAL_LOGITS.reshape(2, 3, 4)), {}),
    "sdpa-causal": ("scaled_dot_product_attention", LOGITS.reshape(2, 3, 4),
                    (LOGITS.reshape(2, 3, 4), SPATIAL_LOGITS.reshape(2, 3, 4)),
                    {"is_causal": True, "scale": 0.3}),
    "sdpa-float-mask": ("scaled_dot_product_attention", LOGITS.reshape(2, 3, 4),
                        (LOGITS.reshape(2, 3, 4), SPATIAL_LOGITS.reshape(2, 3, 4)),
                        {"attn_mask": VALUES[:, :3]}),
    "softsign": ("softsign", VALUES, (), {}),
    "logsigmoid": ("logsigmoid", VALUES * 10, (), {}),
    "softplus": ("softplus", VALUES * 10, (), {"beta": 0.5, "threshold": 3}),
    "mish": ("mish", VALUES * 5, (), {}),
    "avg-pool": ("avg_pool2d", SPATIAL_LOGITS, (), {"kernel_size": 2, "stride": 1}),
    "adaptive-avg-pool": ("adaptive_avg_pool2d", SPATIAL_LOGITS, (), {"output_size": (1, 2)}),
}


def _call(library, name, dtype):
    function, input, others, kwargs = {**LOSSES, **FUNCTIONS}[name]
    make = (lambda a: tapegrad.tensor(a, dtype=dtype)) if library is tapegrad else (
        lambda a: library.tensor(a, dtype=dtype))
    as_tensor = lambda a: make(a) if np.asarray(a).dtype.kind == "f" else library.tensor(a)
    x = make(input).requires_grad_()
    args = [as_tensor(o) for o in others]
    kwargs = {k: as_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    functional = F if library is tapegrad else library.nn.functional
    return x, getattr(functional, function)(x, *args, **kwargs)


@pytest.mark.parametrize("name", [*LOSSES, *FUNCTIONS])
def test_loss_and_gradient_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    x, loss = _call(tapegrad, name, tapegrad.float64)
    tx, tloss = _call(torch, name, torch.float64)
    if name in FUNCTIONS:
        assert loss.grad_fn.name() == tloss.grad_fn.name() or name in OTHER_NODES
    np.testing.assert_allclose(loss.detach().numpy(), tloss.detach().numpy(), rtol=1e-12)
    loss.sum().backward()
    tloss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("name", [*LOSSES, *FUNCTIONS])
def test_loss_gradient_matches_finite_differences(name):
    x, _ = _call(tapegrad, name, tapegrad.float64)
    assert gradcheck(lambda x: _call_with(x, name), (x,))


def _call_with(x, name):
    function, _, others, kwargs = {**LOSSES, **FUNCTIONS}[name]
    as_tensor = lambda a: (tapegrad.tensor(a, dtype=tapegrad.float64)
                           if np.asarray(a).dtype.kind == "f" else tapegrad.tensor(a))
    kwargs = {k: as_tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    return getattr(F, function)(x, *[as_tensor(o) for o in others], **kwargs)


@pytest.mark.parametrize("name", ["ce", "ce-weight", "ce-ignore", "ce-none", "nll"])
def test_cross_entropy_second_derivatives(name):
    x, _ = _call(tapegrad, name, tapegrad.float64)
    assert gradgradcheck(lambda x: _call_with(x, name), (x,))


# call(functional, x, target maker) for losses whose node PyTorch names after the loss itself
NODES = {
    "mse-mean": lambda F, x, t: F.mse_loss(x, t),
    "mse-sum": lambda F, x, t: F.mse_loss(x, t, reduction="sum"),
    "mse-none": lambda F, x, t: F.mse_loss(x, t, reduction="none"),
    "bce-logits": lambda F, x, t: F.binary_cross_entropy_with_logits(x, t.sigmoid()),
    "bce-logits-none": lambda F, x, t: F.binary_cross_entropy_with_logits(
        x, t.sigmoid(), reduction="none"),
    "ce-probs-mean": lambda F, x, t: F.cross_entropy(x, t.softmax(1)),
    "ce-probs-sum": lambda F, x, t: F.cross_entropy(x, t.softmax(1), reduction="sum"),
    "ce-probs-none": lambda F, x, t: F.cross_entropy(x, t.softmax(1), reduction="none"),
    "layer_norm": lambda F, x, t: F.layer_norm(x, (5,)),
    "layer_norm-affine": lambda F, x, t: F.layer_norm(x, (3, 5), t * 2, t),
    "embedding": lambda F, x, t: F.embedding(t.argmax(0), x),
}


def _node_chain(output, depth=3):
    """The names of the first ``depth`` nodes down the first edge."""
    names, node = [], output.grad_fn
    while node is not None and len(names) < depth:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("name", NODES)
def test_records_pytorchs_nodes(name):
    torch = pytest.importorskip("torch")
    x, t = VALUES, TARGETS
    ours = NODES[name](F, tapegrad.tensor(x, requires_grad=True), tapegrad.tensor(t))
    theirs = NODES[name](torch.nn.functional, torch.tensor(x, requires_grad=True),
                         torch.tensor(t))
    assert _node_chain(ours) == _node_chain(theirs)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-12)


@pytest.mark.parametrize("function", ["mse_loss", "binary_cross_entropy_with_logits"])
def test_loss_differentiates_the_target(function):
    torch = pytest.importorskip("torch")
    x = tapegrad.tensor(VALUES, requires_grad=True)
    t = tapegrad.tensor(UNIT, requires_grad=True)
    tx, tt = torch.tensor(VALUES, requires_grad=True), torch.tensor(UNIT, requires_grad=True)
    kwargs = {"pos_weight": tapegrad.tensor(VALUES[1] ** 2)} if "logits" in function else {}
    tkwargs = {"pos_weight": torch.tensor(VALUES[1] ** 2)} if "logits" in function else {}
    getattr(F, function)(x, t, **kwargs).backward()
    getattr(torch.nn.functional, function)(tx, tt, **tkwargs).backward()
    np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-14)
    assert gradcheck(lambda x, t: getattr(F, function)(x, t, **kwargs), (x, t))
    assert gradgradcheck(lambda x, t: getattr(F, function)(x, t, **kwargs), (x, t))


def test_layer_norm_gradients_for_input_weight_bias():
    x = tapegrad.tensor(VALUES.reshape(3, 5, 1) * [1.0, 2.0], requires_grad=True)
    w = tapegrad.tensor(TARGETS[0:2].reshape(5, 2), requires_grad=True)
    b = tapegrad.tensor(VALUES[1:3].reshape(5, 2), requires_grad=True)
    assert gradcheck(lambda x, w, b: F.layer_norm(x, (5, 2), w, b, eps=1e-3), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.layer_norm(x, (5, 2), w, b), (x, w, b))


def test_cross_entropy_records_pytorchs_node():
    loss = F.cross_entropy(tapegrad.randn(3, 4, requires_grad=True), tapegrad.tensor([0, 1, 2]))
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"


def test_losses_stay_finite_on_extreme_inputs():
    logits = tapegrad.tensor([[1000.0, -1000.0, 0.0], [-500.0, 500.0, 499.0]], requires_grad=True)
    loss = F.cross_entropy(logits, tapegrad.tensor([1, 2]))
    loss.backward()
    assert np.isfinite(loss.item()) and loss.item() == pytest.approx((2000 + 1.3132617) / 2)
    assert np.isfinite(logits.grad.numpy()).all()
    z = tapegrad.tensor([200.0, -200.0, 0.0], requires_grad=True)
    bce = F.binary_cross_entropy_with_logits(z, tapegrad.tensor([0.0, 1.0, 1.0]),
                                             reduction="none")
    np.testing.assert_allclose(bce.detach().numpy(), [200.0, 200.0, np.log(2)], rtol=1e-6)
    bce.sum().backward()
    assert np.isfinite(z.grad.numpy()).all()
    unit = tapegrad.tensor([0.0, 1.0, 0.5], requires_grad=True)
    saturated = F.binary_cross_entropy(unit, tapegrad.tensor([1.0, 0.0, 1.0]), reduction="sum")
    assert saturated.item() == pytest.approx(200 + np.log(2))  # logs clamped at -100, as PyTorch
    saturated.backward()
    np.testing.assert_allclose(unit.grad.numpy(), [-1e12, 1e12, -2.0], rtol=1e-6)


def test_binary_cross_entropy_differentiates_the_target_too():
    torch = pytest.importorskip("torch")
    x, t = tapegrad.tensor(UNIT), tapegrad.tensor(UNIT[0], requires_grad=True)
    tx, tt = torch.tensor(UNIT), torch.tensor(UNIT[0], requires_grad=True)
    F.binary_cross_entropy(x, t.expand(3, 5)).backward()
    torch.nn.functional.binary_cross_entropy(tx, tt.expand(3, 5)).backward()
    np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=1e-12)
    assert gradcheck(lambda t: F.binary_cross_entropy(x, t.expand(3, 5)), (t,))


@pytest.mark.filterwarnings("ignore:size_average and reduce args will be deprecated")
def test_loss_modules_pass_their_options():
    torch = pytest.importorskip("torch")
    logits, labels = LOGITS.astype(np.float32), LABELS_IGNORED
    ours = nn.CrossEntropyLoss(weight=tapegrad.tensor(WEIGHT, dtype=tapegrad.float32),
                               ignore_index=-100, label_smoothing=0.05, reduction="sum")
    theirs = torch.nn.CrossEntropyLoss(weight=torch.tensor(WEIGHT, dtype=torch.float32),
                                       label_smoothing=0.05, reduction="sum")
    assert ours(tapegrad.tensor(logits), tapegrad.tensor(labels)).item() == pytest.approx(
        theirs(torch.tensor(logits), torch.tensor(labels)).item(), rel=1e-6)
    assert [n for n, _ in ours.named_buffers()] == ["weight"]
    for ours, theirs in ((nn.MSELoss(reduction="none"), torch.nn.MSELoss(reduction="none")),
                         (nn.L1Loss(), torch.nn.L1Loss()), (nn.BCELoss(), torch.nn.BCELoss()),
                         (nn.BCEWithLogitsLoss(), torch.nn.BCEWithLogitsLoss()),
                         (nn.NLLLoss(size_average=False), torch.nn.NLLLoss(size_average=False))):
        x, t = (UNIT, BINARY) if not isinstance(ours, nn.NLLLoss) else (np.log(PROBS), LABELS)
        tt = t if t.dtype.kind != "f" else t.astype(np.float32)
        value = ours(tapegrad.tensor(x.astype(np.float32)), tapegrad.tensor(tt))
        expected = theirs(torch.tensor(x.astype(np.float32)), torch.tensor(tt))
        np.testing.assert_allclose(value.numpy(), expected.numpy(), rtol=1e-5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.cross_entropy(tapegrad.zeros(2, 3), tapegrad.tensor([0, 3])), IndexError,
     "Target 3 is out of bounds."),
    (lambda: F.cross_entropy(tapegrad.zeros(2, 3), tapegrad.tensor([0, 1, 2])), ValueError,
     "Expected input batch_size (2) to match target batch_size (3)."),
    (lambda: F.cross_entropy(tapegrad.zeros(2, 3), tapegrad.tensor([0, 1]), reduction="avg"),
     ValueError, "avg is not a valid value for reduction"),
    (lambda: F.nll_loss(tapegrad.zeros(2, 3), tapegrad.tensor([0, 1]),
                        weight=tapegrad.ones(2)), RuntimeError,
     "weight tensor should be defined either for all 3 classes or no classes"),
    (lambda: F.binary_cross_entropy(tapegrad.tensor([1.5]), tapegrad.tensor([1.0])),
     RuntimeError, "all elements of input should be between 0 and 1"),
    (lambda: nn.NLLLoss()(tapegrad.ones(3, 4, dtype=tapegrad.int64), tapegrad.tensor([1, 0, 2])),
     NotImplementedError, "\"nll_loss_out_frame\" not implemented for 'Long'"),
    (lambda: nn.MSELoss()(tapegrad.ones(3, dtype=tapegrad.int64),
                          tapegrad.ones(3, dtype=tapegrad.int64)),
     NotImplementedError, "\"mse_cpu\" not implemented for 'Long'"),
    (lambda: nn.CrossEntropyLoss()(tapegrad.ones(3, 4), tapegrad.tensor([1., 0., 2.])),
     RuntimeError, "expected target dtype to be Long or Byte, but got Float"),
    (lambda: nn.CrossEntropyLoss()(tapegrad.ones(3, 4), tapegrad.ones(3, 5)),
     RuntimeError, "0D or 1D target tensor expected, multi-target not supported"),
    (lambda: F.cross_entropy(tapegrad.ones(3, 4), tapegrad.ones(3, 4, dtype=tapegrad.int64)),
     RuntimeError, "Expected floating point type for target with class probabilities, got Long"),
    (lambda: F.embedding(tapegrad.tensor([0, 5]), tapegrad.ones(5, 2)), IndexError,
     "index out of range in self"),
    (lambda: nn.Linear(5, 2)(tapegrad.ones(4, 5, dtype=tapegrad.float64)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: F.binary_cross_entropy_with_logits(
        tapegrad.ones(2), tapegrad.ones(2), weight=tapegrad.ones(2, requires_grad=True)),
     RuntimeError, "is not differentiable with respect to argument 'weight'"),
])
def test_bad_loss_input_gives_pytorchs_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_mse_warns_about_broadcasting_as_pytorch():
    with pytest.warns(UserWarning, match="Using a target size"):
        F.mse_loss(tapegrad.zeros(3, 1), tapegrad.zeros(3))


def test_one_hot():
    np.testing.assert_array_equal(F.one_hot(tapegrad.tensor([0, 2])).numpy(),
                                  [[1, 0, 0], [0, 0, 1]])
    assert F.one_hot(tapegrad.tensor([1]), 4).dtype == tapegrad.int64


SPATIAL_CASES = [(SPATIAL_LOGITS.reshape(2, 3, 4), SPATIAL_LABELS.reshape(2, 4)),
                 (SPATIAL_LOGITS, SPATIAL_LABELS),
                 (SPATIAL_LOGITS.reshape(2, 3, 2, 2, 1), SPATIAL_LABELS.reshape(2, 2, 2, 1))]


@pytest.mark.parametrize("function", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", range(len(SPATIAL_CASES)))
def test_spatial_nll_records_pytorchs_nll_loss2d_nodes(function, reduction, case):
    """PyTorch sends (N, C, d1, ...) inputs to nll_loss2d, viewing them as (N, C, 1, -1) unless
    they are 4-D: ``NllLoss2DBackward0``, with ``ViewBackward0`` around it."""
    torch = pytest.importorskip("torch")
    logits, labels = SPATIAL_CASES[case]
    weight = {"weight": WEIGHT[:3]}
    results = []
    for library in (tapegrad, torch):
        x = library.tensor(logits, requires_grad=True)
        loss = getattr(library.nn.functional, function)(
            x, library.tensor(labels), library.tensor(weight["weight"]), reduction=reduction,
            ignore_index=2)
        loss.sum().backward()
        results.append((_node_chain(loss, 4), loss.detach().numpy(), x.grad.numpy()))
    (our_nodes, ours, our_grad), (their_nodes, theirs, their_grad) = results
    assert our_nodes == their_nodes
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_nll_loss2d_first_and_second_derivatives(reduction):
    x = tapegrad.tensor(SPATIAL_LOGITS, requires_grad=True)
    labels, weight = tapegrad.tensor(SPATIAL_LABELS), tapegrad.tensor(WEIGHT[:3])
    loss = lambda x: F.cross_entropy(x, labels, weight, reduction=reduction)
    assert gradcheck(loss, (x,))
    assert gradgradcheck(loss, (x,))


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.nll_loss(tapegrad.zeros(1, 3, 2, 2), tapegrad.full((1, 2, 3), 1)), RuntimeError,
     "size mismatch (got input: [1, 3, 2, 2] , target: [1, 2, 3]"),
    (lambda: F.nll_loss(tapegrad.zeros(1, 3, 2, 2), tapegrad.full((1, 4), 1)), RuntimeError,
     "only batches of spatial targets supported (3D tensors) but got targets of dimension: 2"),
    (lambda: F.nll_loss(tapegrad.zeros(2, 3, 2, 2), tapegrad.full((1, 2, 2), 1)), ValueError,
     "Expected input batch_size (2) to match target batch_size (1)."),
    (lambda: F.nll_loss(tapegrad.zeros(1, 3, 2, 2), tapegrad.full((1, 2, 2), 1),
                        weight=tapegrad.ones(2)), RuntimeError,
     "weight tensor should be defined either for all or no classes"),
    (lambda: F.nll_loss(tapegrad.zeros(1, 3, 2, dtype=tapegrad.int64), tapegrad.full((1, 2), 1)),
     NotImplementedError, "\"nll_loss2d_forward_out_frame\" not implemented for 'Long'"),
    (lambda: F.nll_loss(tapegrad.zeros(1, 3, 2, 2), tapegrad.full((1, 2, 2), 5)), IndexError,
     "Target 5 is out of bounds."),
])
def test_bad_spatial_nll_input_gives_pytorchs_error(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("options", [{"max_norm": 1.0}, {"max_norm": 2.0, "norm_type": 1.0},
                                     {"max_norm": 2.0, "norm_type": float("inf")},
                                     {"max_norm": 2.0, "padding_idx": 0}])
def test_embedding_max_norm_renormalises_picked_rows_in_place(options):
    torch = pytest.importorskip("torch")
    table = np.array([[3.0, 4.0], [0.1, 0.2], [1.0, -2.0]], dtype=np.float32)
    results = []
    for library in (tapegrad, torch):
        weight = library.tensor(table, requires_grad=True)
        out = library.nn.functional.embedding(library.tensor([[0, 2], [0, 1]]), weight, **options)
        out.sum().backward()
        results.append((out.detach().numpy(), weight.detach().numpy(), weight.grad.numpy(),
                        weight._version))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding_scale_grad_by_freq_divides_by_each_rows_count_as_torch(padding_idx):
    torch = pytest.importorskip("torch")
    table = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    indices = [[0, 2, 0], [3, 0, 2]]  # row 0 picked three times, row 2 twice, row 3 once
    grads = []
    for library in (tapegrad, torch):
        weight = library.tensor(table, requires_grad=True)
        out = library.nn.functional.embedding(library.tensor(indices), weight,
                                              padding_idx=padding_idx, scale_grad_by_freq=True)
        (out * library.arange(6.0).reshape(2, 3, 1)).sum().backward()
        grads.append(weight.grad.numpy())
    np.testing.assert_allclose(*grads, rtol=1e-6)


def test_embedding_module_max_norm_renormalises_its_weight():
    torch = pytest.importorskip("torch")
    table = np.array([[3.0, 4.0], [0.1, 0.2], [1.0, -2.0]], dtype=np.float32)
    ours = nn.Embedding.from_pretrained(tapegrad.tensor(table), max_norm=1.0)
    theirs = torch.nn.Embedding.from_pretrained(torch.tensor(table), max_norm=1.0)
    assert repr(ours) == repr(theirs)
    np.testing.assert_allclose(ours(tapegrad.tensor([2])).numpy(),
                               theirs(torch.tensor([2])).numpy(), rtol=1e-6)
    np.testing.assert_allclose(ours.weight.detach().numpy(), theirs.weight.detach().numpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("indices, error, message", [
    ([5], IndexError, "select(): index 5 out of range for tensor of size [5, 2] at dimension 0"),
    ([1.0], RuntimeError, "Expected tensor for argument #2 'indices' to have one of the "
     "following scalar types: Long, Int; but got torch.FloatTensor instead (while checking "
     "arguments for embedding_renorm_)"),
])
def test_bad_embedding_renorm_input_gives_pytorchs_error(indices, error, message):
    with pytest.raises(error) as info:
        F.embedding(tapegrad.tensor(indices), tapegrad.ones(5, 2), max_norm=1.0)
    assert str(info.value) == message


def test_group_norm_gradients_for_input_weight_bias():
    torch = pytest.importorskip("torch")
    data = VALUES.reshape(3, 5, 1) * [1.0, 2.0, -0.5, 3.0]
    x = tapegrad.tensor(data[:, :4], requires_grad=True)
    w = tapegrad.tensor(TARGETS[0, :4], requires_grad=True)
    b = tapegrad.tensor(VALUES[1, :4], requires_grad=True)
    assert gradcheck(lambda x, w, b: F.group_norm(x, 2, w, b, eps=1e-3), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.group_norm(x, 2, w, b), (x, w, b))
    ours = F.group_norm(x, 2, w, b)
    tx, tw, tb = (torch.tensor(t.detach().numpy(), requires_grad=True) for t in (x, w, b))
    theirs = torch.nn.functional.group_norm(tx, 2, tw, tb)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-10)
    (ours * ours).sum().backward()
    (theirs * theirs).sum().backward()
    for mine, reference in ((x, tx), (w, tw), (b, tb)):
        np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), rtol=1e-9,
                                   atol=1e-12)
