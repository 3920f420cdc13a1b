"""Differences found by differential fuzzing of ``tapegrad.optim`` against PyTorch (fzo): every
optimizer stepped with random options (lr as a float and as a 0-d tensor, foreach, maximize,
differentiable, weight decay variants, parameter groups, grads None, complex and float64
parameters), their state dicts, reprs, ``load_state_dict`` round trips (also of PyTorch-made
dicts), ``add_param_group`` and ``zero_grad``, invalid options; every lr scheduler with random
arguments (ChainedScheduler, SequentialLR, ReduceLROnPlateau, CyclicLR, OneCycleLR,
CosineAnnealingWarmRestarts with epochs, state dicts, warnings, argument errors), and
``swa_utils`` (AveragedModel, SWALR, update_bn).

Fixed: Adagrad's accumulator starts from the optimizer's ``initial_accumulator_value``; Rprop's
float64 step sizes grow by exact etas; a tensor lr keeps the step-size arithmetic in its own dtype
(and foreach rules read it as a Python number); Adam's differentiable rule computes from the
float32 step tensor; ``number ** tensor`` rounds as PyTorch; foreach with differentiable raises
PyTorch's AssertionError; RAdam's unused rectification stays finite; LinearLR's closed form and
MultiplicativeLR's checks follow PyTorch's order.
"""
import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

GRADIENTS = [[0.5, -1.0, 2.0], [0.25, 1.5, -0.75], [-1.0, 0.125, 0.5]]


def _run(lib, name, options, dtype="float64", tensor_lr=None, steps=3):
    """The parameter after ``steps`` steps of ``lib.optim.<name>`` from [1, 2, -3]."""
    param = lib.tensor(np.array([1.0, 2.0, -3.0], dtype=dtype), requires_grad=True)
    if tensor_lr is not None:
        options = dict(options, lr=lib.tensor(tensor_lr))
    optimizer = getattr(lib.optim, name)([param], **options)
    for gradient in GRADIENTS[:steps]:
        param.grad = lib.tensor(np.array(gradient, dtype=dtype))
        optimizer.step()
    return param.detach().numpy()


def _assert_as_torch_to_float64_rounding(name, options, **kwargs):
    """Equal up to float64 rounding (an FMA here or there); the differences fixed were of float32
    rounding, some 1e-9 relative."""
    np.testing.assert_allclose(_run(tapegrad, name, options, **kwargs),
                               _run(torch, name, options, **kwargs), rtol=1e-13, atol=0)


# -- Adagrad's initial accumulator ---------------------------------------------------------------

def test_adagrad_accumulator_starts_from_the_optimizers_value_not_the_groups():
    first, second = tapegrad.zeros(2, requires_grad=True), tapegrad.zeros(2, requires_grad=True)
    optimizer = tapegrad.optim.Adagrad(
        [{"params": [first]}, {"params": [second], "initial_accumulator_value": 0.5}],
        initial_accumulator_value=0.25)
    for param in (first, second):
        assert optimizer.state[param]["sum"].tolist() == [0.25, 0.25]
    assert optimizer.param_groups[1]["initial_accumulator_value"] == 0.5  # kept, unused


def test_adagrad_accumulator_of_a_complex_parameter_is_filled_on_both_parts():
    param = tapegrad.zeros(2, dtype=tapegrad.complex64, requires_grad=True)
    optimizer = tapegrad.optim.Adagrad([param], initial_accumulator_value=0.5)
    assert optimizer.state[param]["sum"].tolist() == [0.5 + 0.5j, 0.5 + 0.5j]


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_adagrad_with_group_accumulator_values_steps_as_torch(dtype):
    def run(lib):
        params = [lib.tensor(np.array([1.0, -2.0], dtype=dtype), requires_grad=True)
                  for _ in range(2)]
        optimizer = lib.optim.Adagrad(
            [{"params": params[:1]}, {"params": params[1:], "initial_accumulator_value": 0.1}],
            lr=0.1)
        for param in params:
            param.grad = lib.tensor(np.array([0.5, 1.0], dtype=dtype))
        optimizer.step()
        return [p.detach().numpy() for p in params]
    for ours, theirs in zip(run(tapegrad), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


# -- float64 and tensor-lr arithmetic, to float64 rounding ---------------------------------------

@needs_torch
def test_rprop_float64_step_sizes_grow_by_exact_etas():
    _assert_as_torch_to_float64_rounding("Rprop", {"lr": 0.1, "etas": (0.3, 1.5)})


def test_rprop_float64_step_size_is_lr_times_eta():
    param = tapegrad.tensor([1.0], dtype=tapegrad.float64, requires_grad=True)
    optimizer = tapegrad.optim.Rprop([param], lr=0.1, etas=(0.3, 1.5))
    for _ in range(2):
        param.grad = tapegrad.tensor([1.0], dtype=tapegrad.float64)
        optimizer.step()
    assert optimizer.state[param]["step_size"].item() == 0.1 * 1.5


TENSOR_LR_CASES = [
    ("Adam", {}), ("Adam", {"amsgrad": True, "weight_decay": 0.1}), ("AdamW", {}),
    ("Adamax", {}), ("Adamax", {"foreach": True}), ("NAdam", {}), ("NAdam", {"foreach": True}),
    ("RAdam", {"foreach": True}), ("RAdam", {}), ("Adagrad", {"lr_decay": 0.1}),
    ("Adagrad", {"lr_decay": 0.1, "foreach": True}), ("Adagrad", {"lr_decay": 0.1, "fused": True}),
    ("Adam", {"fused": True}), ("AdamW", {"fused": True, "amsgrad": True}),
]


@needs_torch
@pytest.mark.parametrize("name, options", TENSOR_LR_CASES)
def test_a_tensor_lr_steps_float64_parameters_as_torch(name, options):
    """A float32 0-d lr: PyTorch's single-tensor rules compute the step size in float32, its
    fused and foreach rules (but Adagrad's foreach) read the lr as a Python number."""
    _assert_as_torch_to_float64_rounding(name, options, tensor_lr=0.1)


@needs_torch
@pytest.mark.parametrize("adjust_lr_fn", ["original", "match_rms_adamw"])
def test_muon_adjusts_a_tensor_lr_with_one_product(adjust_lr_fn):
    def run(lib):
        param = lib.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
        optimizer = lib.optim.Muon([param], lr=lib.tensor(0.01), adjust_lr_fn=adjust_lr_fn)
        param.grad = lib.tensor(np.array([[0.5, -1.0, 2.0], [1.0, 0.25, -0.5]]))
        optimizer.step()
        return param.detach().numpy()
    np.testing.assert_array_equal(run(tapegrad), run(torch))


def test_muon_adjusted_lr_is_lr_times_the_ratio():
    from tapegrad.optim.muon import _adjust_lr
    lr = tapegrad.tensor(0.01)
    assert _adjust_lr(lr, "match_rms_adamw", (2, 8)).item() == (lr * (0.2 * 8 ** 0.5)).item()


def test_a_number_to_a_float32_tensor_power_takes_the_number_in_float32():
    assert (0.9 ** tapegrad.tensor(4.0)).item() == 0.6560999155044556  # 0.9f ** 4, not 0.9 ** 4
    assert tapegrad.pow(0.9, tapegrad.tensor([4.0])).tolist() == \
        (tapegrad.tensor(0.9) ** tapegrad.tensor([4.0])).tolist()


@needs_torch
def test_a_number_to_a_tensor_power_as_torch():
    exponents = np.linspace(-3, 3, 101).astype(np.float32)
    for base in (0.9, 0.999, 2.0):
        ours = tapegrad.pow(base, tapegrad.from_numpy(exponents)).numpy()
        theirs = torch.pow(base, torch.from_numpy(exponents)).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=2e-7)


def _assert_differentiable_float64_steps_as_torch(name, options, rtol):
    """A non-leaf float64 parameter stepped by a differentiable optimizer, then differentiated
    back to its leaf: parameters and leaf gradient as PyTorch's, to ``rtol``."""
    def run(lib):
        leaf = lib.tensor([1.0, 2.0, -3.0], dtype=lib.float64, requires_grad=True)
        param = leaf * 1
        optimizer = getattr(lib.optim, name)([param], lr=0.1, differentiable=True, **options)
        for gradient in GRADIENTS:
            param.grad = lib.tensor(gradient, dtype=lib.float64)
            optimizer.step()
        param.sum().backward()
        return param.detach().numpy(), leaf.grad.numpy()
    (ours, ours_grad), (theirs, theirs_grad) = run(tapegrad), run(torch)
    np.testing.assert_allclose(ours, theirs, rtol=rtol)
    np.testing.assert_allclose(ours_grad, theirs_grad, rtol=rtol)


@needs_torch
@pytest.mark.parametrize("options", [{}, {"amsgrad": True}, {"weight_decay": 0.1}])
def test_differentiable_adam_bias_corrections_come_from_the_float32_step(options):
    """float64 parameters: PyTorch's differentiable rule computes ``1 - beta ** step`` on the
    float32 step tensor (so within float32 rounding of the float64 rule, not equal to it)."""
    _assert_differentiable_float64_steps_as_torch("Adam", options, rtol=1e-12)


# -- differentiable steps -----------------------------------------------------------------------

FOREACH_REFUSALS = {  # optimizer: whether PyTorch refuses a group without gradients too
    "Adam": False, "AdamW": False, "NAdam": False, "RAdam": False, "RMSprop": False,
    "Rprop": False, "ASGD": False, "Adagrad": True, "Adadelta": True, "Adamax": True}


@pytest.mark.parametrize("name", sorted(FOREACH_REFUSALS))
@pytest.mark.parametrize("with_grad", [True, False])
def test_foreach_refuses_a_differentiable_step(name, with_grad):
    param = tapegrad.ones(2, requires_grad=True) * 1
    optimizer = getattr(tapegrad.optim, name)([param], foreach=True, differentiable=True)
    if with_grad:
        param.grad = tapegrad.ones(2)
    if with_grad or FOREACH_REFUSALS[name]:
        with pytest.raises(AssertionError, match="^_foreach ops don't support autograd$"):
            optimizer.step()
    else:
        optimizer.step()


def test_sgd_foreach_takes_a_differentiable_step():
    leaf = tapegrad.ones(2, requires_grad=True)
    param = leaf * 1
    optimizer = tapegrad.optim.SGD([param], lr=0.5, foreach=True, differentiable=True)
    param.grad = tapegrad.ones(2)
    optimizer.step()
    assert param.tolist() == [0.5, 0.5] and param.requires_grad


@needs_torch
@pytest.mark.parametrize("name", ["Adam", "Adagrad", "SGD"])
def test_foreach_differentiable_as_torch(name):
    def run(lib):
        param = lib.ones(2, requires_grad=True) * 1
        optimizer = getattr(lib.optim, name)([param], foreach=True, differentiable=True)
        param.grad = lib.ones(2)
        try:
            optimizer.step()
        except AssertionError as error:
            return str(error)
        return param.tolist()
    assert run(tapegrad) == run(torch)


@pytest.mark.parametrize("betas", [(0.9, 0.5), (0.9, 0.6), (0.3, 0.65)])
@pytest.mark.parametrize("foreach", [False, True])
def test_radam_never_rectified_has_finite_gradients(betas, foreach):
    """beta2 <= 2/3 (rho_inf <= 5): the rectified update is never used, so its formula (a square
    root of a negative number, or a division by zero) must not reach the gradient."""
    leaf = tapegrad.tensor([1.0, 2.0, -3.0], requires_grad=True)
    param = leaf * 1
    optimizer = tapegrad.optim.RAdam([param], lr=0.1, betas=betas, weight_decay=0.1,
                                     differentiable=True, foreach=False)
    for gradient in GRADIENTS:
        param.grad = tapegrad.tensor(gradient)
        optimizer.step()
    param.sum().backward()
    assert np.isfinite(leaf.grad.numpy()).all()
    assert np.isfinite(param.detach().numpy()).all()


@needs_torch
def test_radam_never_rectified_gradients_as_torch():
    def run(lib):
        leaf = lib.tensor([1.0, 2.0, -3.0], dtype=lib.float64, requires_grad=True)
        param = leaf * 1
        optimizer = lib.optim.RAdam([param], lr=0.1, betas=(0.3, 0.5), weight_decay=0.1,
                                    differentiable=True)
        for gradient in GRADIENTS:
            param.grad = lib.tensor(gradient, dtype=lib.float64)
            optimizer.step()
        param.sum().backward()
        return leaf.grad.numpy()
    np.testing.assert_allclose(run(tapegrad), run(torch), rtol=1e-10)


# -- argument checks -----------------------------------------------------------------------------

def test_sparse_adam_indexes_both_betas():
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        tapegrad.optim.SparseAdam([tapegrad.zeros(2, requires_grad=True)], betas=(0.9,))


def test_sparse_adam_unpacks_its_betas_before_looking_at_the_gradient():
    param = tapegrad.zeros(2, requires_grad=True)
    optimizer = tapegrad.optim.SparseAdam([param], betas=(0.9, 0.99, 0.5))
    param.grad = tapegrad.ones(2)  # dense, refused once the betas are read
    with pytest.raises(ValueError, match=r"^too many values to unpack \(expected 2\)$"):
        optimizer.step()


def _lambda_scheduler_error(lib, lr_lambda):
    optimizer = lib.optim.SGD([lib.zeros(2, requires_grad=True)], lr=0.1)
    try:
        lib.optim.lr_scheduler.MultiplicativeLR(optimizer, lr_lambda)
    except (TypeError, ValueError) as error:
        return type(error).__name__, str(error)
    return None


def test_multiplicative_lr_counts_its_functions_before_checking_them():
    assert _lambda_scheduler_error(tapegrad, [0.5, 0.5]) == (
        "ValueError", "Expected 1 lr_lambdas, but got 2")
    assert _lambda_scheduler_error(tapegrad, 0.5) == (
        "TypeError", "lr_lambda should be a function, but got float")


@needs_torch
@pytest.mark.parametrize("lr_lambda", [[0.5, 0.5], 0.5, [0.5]])
def test_multiplicative_lr_checks_as_torch(lr_lambda):
    assert _lambda_scheduler_error(tapegrad, lr_lambda) == _lambda_scheduler_error(torch,
                                                                                  lr_lambda)


def test_linear_lr_closed_form_with_no_iterations_divides_a_float_by_zero():
    optimizer = tapegrad.optim.SGD([tapegrad.zeros(2, requires_grad=True)], lr=0.1)
    scheduler = tapegrad.optim.lr_scheduler.LinearLR(optimizer, total_iters=0)
    optimizer.step()
    with pytest.warns(UserWarning), pytest.raises(ZeroDivisionError,
                                                  match="^float division by zero$"):
        scheduler.step(2)


@needs_torch
def test_linear_lr_closed_form_as_torch():
    def run(lib):
        optimizer = lib.optim.SGD([lib.zeros(2, requires_grad=True)], lr=0.1)
        scheduler = lib.optim.lr_scheduler.LinearLR(optimizer, start_factor=1 / 3,
                                                    end_factor=0.7, total_iters=3)
        lrs = []
        for epoch in (1, 2, 5, 0, 3):
            optimizer.step()
            with pytest.warns(UserWarning):
                scheduler.step(epoch)
            lrs.append(optimizer.param_groups[0]["lr"])
        return lrs
    assert run(tapegrad) == run(torch)


@needs_torch
@pytest.mark.parametrize("options", [{}, {"momentum_decay": 0.1},
                                     {"weight_decay": 0.1, "decoupled_weight_decay": True}])
def test_differentiable_nadam_coefficients_come_from_the_float32_mu_product(options):
    _assert_differentiable_float64_steps_as_torch("NAdam", options, rtol=1e-13)


def test_a_number_over_a_tensor_is_a_reciprocal_times_the_number():
    from tapegrad.optim.optimizer import divide
    denominator = tapegrad.tensor(3.0)
    assert divide(0.1, denominator).item() == (denominator.reciprocal() * 0.1).item()
    assert divide(tapegrad.tensor(0.1), denominator).item() == \
        (tapegrad.tensor(0.1) / denominator).item()


@pytest.mark.parametrize("name", ["Adam", "AdamW", "SGD", "Adagrad"])
def test_fused_refuses_a_complex_parameter_at_the_step(name):
    param = tapegrad.zeros(2, dtype=tapegrad.complex64, requires_grad=True)
    optimizer = getattr(tapegrad.optim, name)([param], fused=True)
    param.grad = tapegrad.ones(2, dtype=tapegrad.complex64)
    with pytest.raises(RuntimeError, match=r"^`fused=True` requires all the params to be floating "
                                           r"point Tensors of supported devices: \['mps', 'cuda', "
                                           r"'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'\] but "
                                           r"torch.complex64 and cpu$"):
        optimizer.step()
