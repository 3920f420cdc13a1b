"""Layers, losses and activations on operands of mixed or unsupported dtypes, shapes and
arguments — against PyTorch: the result's dtype and value, or the same exception type and
message. Also the warnings PyTorch emits (implicit softmax dim, legacy loss flags, RNN dropout,
scheduler call order, deprecated initialiser and clipping names), the fully-masked rows of
scaled-dot-product attention, the new functional ops (``channel_shuffle``, ``gumbel_softmax``),
``optim.swa_utils`` and the Rprop and ASGD optimizers.

Rows are written against a module ``T``: ``tapegrad`` or PyTorch itself, so one table serves both.
"""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck
from same_as_torch import as_worded_by_onednn, torch_convolves_half_on_onednn

torch = pytest.importorskip("torch")


def _outcome(T, fn):
    """What ``fn(T, F)`` gives: ("ok", dtype name, values) or ("error", type name, message)."""
    try:
        result = fn(T, T.nn.functional)
    except Exception as error:  # noqa: BLE001  the exception is the outcome compared
        return "error", type(error).__name__, str(error)
    return "ok", str(result.dtype), np.round(result.detach().numpy().astype(float), 4).tolist()


def _same_outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _outcome(tapegrad, fn) == _outcome(torch, fn)


def _f32(T):
    return T.tensor([0.2, 0.7, 0.4], requires_grad=True)


def _f64(T):
    return T.tensor([0.0, 1.0, 0.0], dtype=T.float64)


def _long(T):
    return T.tensor([0, 1, 0])


LOSSES = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "soft_margin_loss",
          "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
          "poisson_nll_loss"]
OPERANDS = {"f32_f64": (_f32, _f64), "f32_long": (_f32, _long), "f64_f32": (_f64, _f32),
            "long_f32": (_long, _f32), "long_long": (_long, _long)}


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("operands", sorted(OPERANDS))
@pytest.mark.parametrize("loss", LOSSES)
def test_losses_promote_or_refuse_mixed_dtypes_as_torch(loss, operands):
    make_input, make_target = OPERANDS[operands]
    _same_outcome(lambda T, F: getattr(F, loss)(make_input(T), make_target(T)))


@pytest.mark.parametrize("name, fn", [
    ("bce weight length", lambda T, F: F.binary_cross_entropy(
        T.full((3,), 0.5), T.full((3,), 0.5), weight=T.ones(2))),
    ("bce weight rank", lambda T, F: F.binary_cross_entropy(
        T.full((2, 3), 0.5), T.full((2, 3), 0.5), weight=T.ones(3, 3))),
    ("bce weight f64", lambda T, F: F.binary_cross_entropy(
        T.full((3,), 0.3), T.full((3,), 0.5), weight=T.ones(3, dtype=T.float64))),
    ("bce bool target", lambda T, F: F.binary_cross_entropy(T.full((3,), 0.3), _long(T).bool())),
    ("bcel weight length", lambda T, F: F.binary_cross_entropy_with_logits(
        T.zeros(3), T.ones(3), weight=T.ones(2))),
    ("bcel int32 target", lambda T, F: F.binary_cross_entropy_with_logits(
        T.zeros(3), _long(T).int())),
    ("bcel bool target", lambda T, F: F.binary_cross_entropy_with_logits(
        T.zeros(3), _long(T).bool())),
    ("bcel pos_weight f64", lambda T, F: F.binary_cross_entropy_with_logits(
        _f32(T), _f64(T).float(), pos_weight=T.full((3,), 2.0, dtype=T.float64))),
    ("cosine long", lambda T, F: F.cosine_similarity(_long(T), _long(T), dim=0)),
    ("cosine f32 f64", lambda T, F: F.cosine_similarity(_f32(T), _f64(T) + 1, dim=0)),
    ("cross entropy 1-d, [1]", lambda T, F: F.cross_entropy(
        T.tensor([0.1, 0.5, -1.0]), T.tensor([1]))),
    ("cross entropy 1-d, [1] none", lambda T, F: F.cross_entropy(
        T.tensor([0.1, 0.5, -1.0]), T.tensor([1]), reduction="none")),
    ("cross entropy 1-d, [2]", lambda T, F: F.cross_entropy(
        T.tensor([0.1, 0.5, -1.0]), T.tensor([1, 2]))),
    ("nll 1-d, [[1]]", lambda T, F: F.nll_loss(T.tensor([0.1, 0.5, -1.0]), T.tensor([[1]]))),
])
def test_loss_checks_match_torch(name, fn):
    _same_outcome(fn)


def test_mixed_dtype_loss_gradients_reach_the_input_in_its_dtype():
    for T in (tapegrad, torch):
        x = _f32(T)
        loss = T.nn.functional.mse_loss(x, _f64(T))
        loss.backward()
        assert loss.dtype == T.float64 and x.grad.dtype == T.float32
        assert type(loss.grad_fn).__name__ == "MseLossBackward0"
    grads = [np.asarray(T.autograd.grad(T.nn.functional.binary_cross_entropy_with_logits(
        x, _f64(T).float()), x)[0]) for T in (tapegrad, torch) for x in [_f32(T).double()]]
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6)


ACTIVATIONS = ["relu", "relu6", "gelu", "sigmoid", "tanh", "silu", "mish", "elu", "selu",
               "celu", "leaky_relu", "softplus", "hardtanh", "logsigmoid", "hardswish",
               "hardsigmoid", "softshrink", "hardshrink", "rrelu"]


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activations_on_integer_and_bool_inputs_match_torch(name, dtype):
    _same_outcome(lambda T, F: getattr(F, name)(
        T.tensor([1, -2, 3]).to(getattr(T, dtype))))


@pytest.mark.parametrize("dtype", ["int64", "bool"])
@pytest.mark.parametrize("name, fn", [
    ("softmax last", lambda x, F: F.softmax(x, -1)),
    ("softmax first", lambda x, F: F.softmax(x.reshape(1, 3), 0)),
    ("softmax dtype", lambda x, F: F.softmax(x, 0, dtype=x.new_zeros(()).float().dtype)),
    ("log_softmax", lambda x, F: F.log_softmax(x, 0)),
    ("softmin", lambda x, F: F.softmin(x, 0)),
    ("glu", lambda x, F: F.glu(x.repeat(2), 0)),
    ("threshold", lambda x, F: F.threshold(x, 1, 0)),
    ("prelu", lambda x, F: F.prelu(x, x.new_ones(1).float())),
])
def test_other_activations_on_integer_and_bool_inputs_match_torch(name, fn, dtype):
    _same_outcome(lambda T, F: fn(T.tensor([1, -2, 3]).to(getattr(T, dtype)), F))


@pytest.mark.parametrize("name, fn", [
    ("layer norm long", lambda T, F: T.nn.LayerNorm(3)(_long(T)[None])),
    ("layer norm f64", lambda T, F: T.nn.LayerNorm(3)(_long(T)[None].double())),
    ("layer norm long no affine", lambda T, F: F.layer_norm(_long(T)[None], (3,))),
    ("layer norm f64 weight", lambda T, F: F.layer_norm(
        T.ones(2, 3), (3,), T.ones(3, dtype=T.float64))),
    ("group norm long", lambda T, F: T.nn.GroupNorm(1, 3)(_long(T)[None])),
    ("group norm long no affine", lambda T, F: F.group_norm(_long(T).reshape(1, 3, 1), 1)),
    ("batch norm long", lambda T, F: T.nn.BatchNorm1d(3)(_long(T)[None].expand(2, 3))),
    ("batch norm eval long", lambda T, F: T.nn.BatchNorm1d(3).eval()(_long(T)[None].expand(2, 3))),
    ("batch norm f64", lambda T, F: T.nn.BatchNorm1d(3)(_long(T)[None].expand(2, 3).double())),
    ("batch norm f64 stats", lambda T, F: F.batch_norm(
        T.ones(2, 3), T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64))),
    ("instance norm long", lambda T, F: T.nn.InstanceNorm1d(3)(
        _long(T)[None, :, None].expand(1, 3, 2))),
    ("rms norm long", lambda T, F: F.rms_norm(_long(T)[None], (3,))),
    ("embedding uint8", lambda T, F: F.embedding(T.tensor([1, 0], dtype=T.uint8), T.ones(4, 2))),
    ("embedding bool", lambda T, F: F.embedding(T.tensor([True, False]), T.ones(4, 2))),
    ("embedding float", lambda T, F: F.embedding(T.tensor([1.0]), T.ones(4, 2))),
    ("embedding int32", lambda T, F: F.embedding(T.tensor([1, 0], dtype=T.int32), T.ones(4, 2))),
    ("embedding_bag float", lambda T, F: F.embedding_bag(T.tensor([[1.0, 0.0]]), T.ones(4, 2))),
])
def test_normalizations_and_embeddings_check_dtypes_as_torch(name, fn):
    _same_outcome(fn)


CONV_INPUT_DTYPES = ["float64", "int64", "int32", "bool", "float16"]


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", CONV_INPUT_DTYPES)
@pytest.mark.parametrize("layer, shape", [("Conv1d", (1, 1, 4)), ("Conv2d", (1, 1, 4, 4)),
                                          ("ConvTranspose1d", (1, 1, 4)),
                                          ("ConvTranspose2d", (1, 1, 4, 4))])
def test_convolutions_check_dtypes_as_torch(layer, shape, dtype, bias):
    def run(T, F):
        T.manual_seed(0)
        return getattr(T.nn, layer)(1, 1, 2, bias=bias)(T.ones(shape).to(getattr(T, dtype)))
    outcome, theirs = _outcome(tapegrad, run), _outcome(torch, run)
    if dtype == "float16" and not torch_convolves_half_on_onednn(torch):
        # tapegrad words it as oneDNN, which runs float16 convolutions only on CPUs that have
        # float16 support; elsewhere PyTorch's native kernels word it
        theirs = (*theirs[:2], as_worded_by_onednn(torch, theirs[2]))
    assert outcome[0] == "error" and outcome == theirs


@pytest.mark.parametrize("name, fn", [
    ("weight f64", lambda T, F: F.conv1d(
        T.ones(1, 1, 4), T.ones(1, 1, 2, dtype=T.float64), T.ones(1))),
    ("bias f64", lambda T, F: F.conv1d(T.ones(1, 1, 4), T.ones(1, 1, 2),
                                       T.ones(1, dtype=T.float64))),
    ("transposed bias f64", lambda T, F: F.conv_transpose1d(
        T.ones(1, 1, 4), T.ones(1, 1, 2), T.ones(1, dtype=T.float64))),
    ("long with long", lambda T, F: F.conv1d(T.ones(1, 1, 4).long(), T.ones(1, 1, 2).long())),
])
def test_functional_convolutions_check_dtypes_as_torch(name, fn):
    _same_outcome(fn)


@pytest.mark.parametrize("name, fn", [
    ("lstm h0 batch", lambda T: T.nn.LSTM(10, 4, batch_first=True)(
        T.ones(2, 7, 10), (T.zeros(1, 3, 4), T.zeros(1, 3, 4)))),
    ("lstm c0 batch", lambda T: T.nn.LSTM(10, 4)(
        T.ones(7, 2, 10), (T.zeros(1, 2, 4), T.zeros(1, 3, 4)))),
    ("lstm proj h0", lambda T: T.nn.LSTM(10, 4, proj_size=2)(
        T.ones(7, 2, 10), (T.zeros(1, 2, 4), T.zeros(1, 2, 4)))),
    ("lstm unbatched 3-D state", lambda T: T.nn.LSTM(10, 4)(
        T.ones(7, 10), (T.zeros(1, 1, 4), T.zeros(1, 1, 4)))),
    ("gru layers", lambda T: T.nn.GRU(10, 4)(T.ones(7, 2, 10), T.zeros(2, 2, 4))),
    ("gru bidirectional", lambda T: T.nn.GRU(3, 2, bidirectional=True)(
        T.ones(4, 1, 3), T.zeros(1, 1, 2))),
    ("rnn unbatched", lambda T: T.nn.RNN(10, 4)(T.ones(7, 10), T.zeros(2, 4))),
    ("rnn unbatched 3-D state", lambda T: T.nn.RNN(10, 4)(T.ones(7, 10), T.zeros(1, 1, 4))),
    ("rnn batched 2-D state", lambda T: T.nn.RNN(10, 4)(T.ones(7, 2, 10), T.zeros(1, 4))),
    ("rnn long", lambda T: T.nn.RNN(3, 2)(T.ones(4, 3, dtype=T.int64))),
    ("gru f64", lambda T: T.nn.GRU(3, 2)(T.ones(4, 3, dtype=T.float64))),
    ("gru cell batch", lambda T: T.nn.GRUCell(3, 2)(T.ones(4, 3), T.zeros(3, 2))),
    ("lstm cell c batch", lambda T: T.nn.LSTMCell(3, 2)(
        T.ones(4, 3), (T.zeros(4, 2), T.zeros(3, 2)))),
])
def test_recurrent_layers_check_states_and_dtypes_as_torch(name, fn):
    def run(T, F):
        return fn(T)[0]
    outcome = _outcome(tapegrad, run)
    assert outcome[0] == "error" and outcome == _outcome(torch, run)


# ----------------------------------------------------------------------------------- attention

def _attention_inputs(T):
    q = (T.arange(24.0).reshape(1, 3, 8).sin() * 2).requires_grad_()
    k = T.arange(32.0).reshape(1, 4, 8).cos()
    v = T.arange(16.0).reshape(1, 4, 4)
    mask = T.tensor([[True, True, False, False], [False] * 4, [True, False, True, True]])
    return q, k, v, mask


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_attention_gives_zeros_for_a_fully_masked_query(kind):
    results = []
    for T in (tapegrad, torch):
        q, k, v, mask = _attention_inputs(T)
        if kind == "float":
            mask = T.zeros(3, 4).masked_fill(~mask, float("-inf"))
        out = T.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out.sum().backward()
        results.append((out.detach().numpy(), q.grad.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    assert not results[0][0][0, 1].any() and not results[0][1][0, 1].any()


@pytest.mark.parametrize("name, fn", [
    ("causal and mask", lambda T, F, q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m, is_causal=True)),
    ("dtypes differ", lambda T, F, q, k, v, m: F.scaled_dot_product_attention(q.double(), k, v)),
    ("long", lambda T, F, q, k, v, m: F.scaled_dot_product_attention(
        q.long(), k.long(), v.long())),
    ("long mask", lambda T, F, q, k, v, m: F.scaled_dot_product_attention(
        q, k, v, attn_mask=m.long())),
    ("grouped query", lambda T, F, q, k, v, m: F.scaled_dot_product_attention(
        T.ones(1, 4, 3, 8), T.ones(1, 2, 4, 8), T.arange(16.0).reshape(1, 2, 4, 2),
        enable_gqa=True)),
])
def test_attention_checks_match_torch(name, fn):
    _same_outcome(lambda T, F: fn(T, F, *_attention_inputs(T)))


# ------------------------------------------------------------------------------------ warnings

def _warnings(T, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(T)
    return [(w.category.__name__, str(w.message), w.filename) for w in caught]


def _step_then_sgd(T):
    optimizer = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)
    scheduler = T.optim.lr_scheduler.StepLR(optimizer, 1)
    scheduler.step()
    optimizer.step()
    scheduler.get_lr()


@pytest.mark.parametrize("name, fn", [
    ("softmax", lambda T: T.nn.functional.softmax(T.ones(2, 3))),
    ("Softmax module", lambda T: T.nn.Softmax()(T.ones(2, 3))),
    ("log_softmax", lambda T: T.nn.functional.log_softmax(T.ones(3))),
    ("softmin", lambda T: T.nn.functional.softmin(T.ones(3))),
    ("MSELoss size_average", lambda T: T.nn.MSELoss(size_average=False)),
    ("L1Loss reduce", lambda T: T.nn.L1Loss(reduce=False)),
    ("F.nll_loss reduce", lambda T: T.nn.functional.nll_loss(
        T.zeros(2, 3), T.tensor([0, 1]), reduce=False)),
    ("LSTM dropout", lambda T: T.nn.LSTM(3, 4, num_layers=1, dropout=0.5)),
    ("xavier_normal", lambda T: T.nn.init.xavier_normal(T.empty(2, 2))),
    ("kaiming_uniform", lambda T: T.nn.init.kaiming_uniform(T.empty(2, 2))),
    ("clip_grad_norm", lambda T: T.nn.utils.clip_grad_norm([T.nn.Parameter(T.ones(1))], 1.0)),
    ("clip_grad_norm_ empty generator", lambda T: T.nn.utils.clip_grad_norm_(
        (p for p in []), 1.0)),
    ("scheduler order and get_lr", _step_then_sgd),
    ("gumbel eps", lambda T: T.nn.functional.gumbel_softmax(T.zeros(3), eps=1e-5)),
    ("trunc_normal_ far mean", lambda T: T.nn.init.trunc_normal_(T.empty(3), mean=5.0)),
])
def test_warnings_match_torch_and_point_at_the_caller(name, fn):
    ours, theirs = _warnings(tapegrad, fn), _warnings(torch, fn)
    assert [w[:2] for w in ours] == [w[:2] for w in theirs] and ours
    assert all(w[2] == __file__ for w in ours)


@pytest.mark.parametrize("name, fn", [
    ("fan_avg", lambda T, F: T.nn.init.kaiming_normal_(T.empty(2, 2), mode="fan_avg")),
    ("trunc bounds", lambda T, F: T.nn.init.trunc_normal_(T.empty(2, 2), a=2, b=-2)),
    ("int parameter", lambda T, F: T.nn.Parameter(T.arange(3))),
])
def test_init_errors_match_torch(name, fn):
    _same_outcome(fn)


def test_trunc_normal_stays_inside_its_bounds_with_the_truncated_moments():
    values = tapegrad.nn.init.trunc_normal_(tapegrad.empty(20000), 1.0, 2.0, -1.0, 3.0).numpy()
    assert values.min() >= -1.0 and values.max() <= 3.0
    assert abs(values.mean() - 1.0) < 0.05 and abs(values.std() - 1.075) < 0.05
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        far = tapegrad.nn.init.trunc_normal_(tapegrad.empty(100), 0.0, 1.0, 8.0, 9.0).numpy()
    assert far.min() >= 8.0 and far.max() <= 9.0  # no rejection loop to hang in


@pytest.mark.parametrize("scheduler, kwargs", [
    ("LambdaLR", dict(lr_lambda=lambda epoch: 1.0)), ("StepLR", dict(step_size=2)),
    ("CosineAnnealingLR", dict(T_max=3)), ("OneCycleLR", dict(max_lr=1.0, total_steps=10)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1)), ("CosineAnnealingWarmRestarts", dict(T_0=2)),
    ("MultiStepLR", dict(milestones=[1])), ("PolynomialLR", {}), ("LinearLR", {}),
    ("ConstantLR", {}), ("ExponentialLR", dict(gamma=0.9)),
    ("MultiplicativeLR", dict(lr_lambda=lambda epoch: 1.0)), ("ReduceLROnPlateau", {}),
])
def test_scheduler_state_dict_keys_match_torch(scheduler, kwargs):
    keys = []
    for T in (tapegrad, torch):
        optimizer = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.9)
        keys.append(list(getattr(T.optim.lr_scheduler, scheduler)(optimizer, **kwargs)
                         .state_dict()))
    assert keys[0] == keys[1]


# --------------------------------------------------------------------------- new operations

def test_channel_shuffle_matches_torch():
    results = []
    for T in (tapegrad, torch):
        x = T.arange(24.0).reshape(1, 6, 2, 2).requires_grad_()
        y = T.nn.functional.channel_shuffle(x, 2)
        (y * T.arange(24.0).reshape(1, 6, 2, 2)).sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__,
                        repr(T.nn.ChannelShuffle(3))))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][2:] == results[1][2:]
    x = tapegrad.tensor(np.random.default_rng(0).normal(size=(2, 6, 3)), requires_grad=True)
    assert gradcheck(lambda t: tapegrad.nn.functional.channel_shuffle(t, 3), (x,))
    assert gradgradcheck(lambda t: tapegrad.nn.functional.channel_shuffle(t, 3), (x,))


@pytest.mark.parametrize("name, fn", [
    ("indivisible", lambda T, F: F.channel_shuffle(T.ones(1, 3, 2), 2)),
    ("1-d", lambda T, F: F.channel_shuffle(T.ones(3), 1)),
    ("2-d", lambda T, F: F.channel_shuffle(T.ones(1, 4), 2)),
    ("groups", lambda T, F: F.channel_shuffle(T.ones(1, 4, 1), -1)),
])
def test_channel_shuffle_errors_match_torch(name, fn):
    _same_outcome(fn)


@pytest.mark.parametrize("hard", [False, True])
def test_gumbel_softmax_shapes_one_hots_and_gradients(hard):
    logits = tapegrad.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 5.0]], requires_grad=True)
    sample = tapegrad.nn.functional.gumbel_softmax(logits, tau=0.5, hard=hard)
    assert sample.shape == logits.shape
    np.testing.assert_allclose(sample.detach().numpy().sum(1), 1.0, rtol=1e-6)
    assert type(sample.grad_fn).__name__ == ("AddBackward0" if hard else "SoftmaxBackward0")
    if hard:
        assert set(np.unique(sample.detach().numpy())) <= {0.0, 1.0}
    (sample * tapegrad.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert np.abs(logits.grad.numpy()).sum() > 0
    np.testing.assert_allclose(logits.grad.numpy().sum(1), 0.0, atol=1e-5)


def _fit(T, name, **kwargs):
    weight = T.nn.Parameter(T.tensor([1.0, -2.0, 3.0, 0.5]))
    optimizer = getattr(T.optim, name)([weight], **kwargs)
    for _ in range(6):
        optimizer.zero_grad()
        ((weight - T.tensor([0.3, 0.2, -0.1, 0.5])) ** 2 * T.tensor([1.0, 2.0, 3.0, 4.0])).sum() \
            .backward()
        optimizer.step()
    state = {key: np.asarray(value) for key, value in optimizer.state[weight].items()}
    return weight.detach().numpy(), state, repr(optimizer)


@pytest.mark.parametrize("name, kwargs", [
    ("Rprop", {}),
    ("Rprop", dict(lr=0.1, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True)),
    ("ASGD", {}),
    ("ASGD", dict(lr=0.1, t0=2, weight_decay=0.1, lambd=0.01)),
])
def test_rprop_and_asgd_match_torch(name, kwargs):
    ours, theirs = _fit(tapegrad, name, **kwargs), _fit(torch, name, **kwargs)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1].keys() == theirs[1].keys()
    for key in ours[1]:
        np.testing.assert_allclose(ours[1][key], theirs[1][key], rtol=1e-6)
    assert ours[2] == theirs[2]


def test_rprop_checks_its_etas():
    _same_outcome(lambda T, F: T.optim.Rprop([T.nn.Parameter(T.ones(1))], etas=(1.5, 1.2)))


# --------------------------------------------------------------------------- weight averaging

def _model(T):
    model = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.BatchNorm1d(2), T.nn.Linear(2, 1))
    with T.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(T.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
    return model


def _average(T):
    swa_utils = T.optim.swa_utils
    model = _model(T)
    x = T.arange(12.0).view(4, 3) / 10
    swa = swa_utils.AveragedModel(model)
    ema = swa_utils.AveragedModel(model, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.9),
                                  use_buffers=True)
    single = swa_utils.AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(0.5))
    for _ in range(3):
        model(x)
        with T.no_grad():
            model[0].weight.mul_(0.9).add_(0.1)
        for averaged in (swa, ema, single):
            averaged.update_parameters(model)
    optimizer = T.optim.SGD(model.parameters(), lr=0.5)
    scheduler = swa_utils.SWALR(optimizer, swa_lr=0.05, anneal_epochs=3)
    lrs = []
    for _ in range(5):
        optimizer.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr()[0])
    swa_utils.update_bn([(x, None), (x * 2, None)], ema.module)
    return ([np.asarray(t.detach()) for m in (swa, ema, single) for t in m.state_dict().values()],
            [list(m.state_dict()) for m in (swa, ema, single)], lrs,
            sorted(scheduler.state_dict()), repr(swa), ema.module.training)


def test_swa_utils_match_torch():
    ours, theirs = _average(tapegrad), _average(torch)
    for mine, other in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(mine, other, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-9)
    assert ours[1] == theirs[1] and ours[3:] == theirs[3:]


@pytest.mark.parametrize("name, fn", [
    ("decay", lambda T, F: T.optim.swa_utils.get_ema_avg_fn(2.0)),
    ("both functions", lambda T, F: T.optim.swa_utils.AveragedModel(
        T.nn.Linear(1, 1), avg_fn=max, multi_avg_fn=min)),
    ("strategy", lambda T, F: T.optim.swa_utils.SWALR(
        T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1), 0.1, anneal_strategy="exp")),
])
def test_swa_utils_errors_match_torch(name, fn):
    _same_outcome(fn)
