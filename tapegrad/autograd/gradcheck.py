"""``gradcheck`` and ``gradgradcheck``: backward rules checked against finite differences, with
PyTorch's checks and messages.

``gradcheck`` compares, for every differentiable output and every input that requires grad, the
analytic Jacobian (built row by row with ``autograd.grad``: one vector-Jacobian product per
output element) with the numerical one (central differences, column by column, computed in the
outputs' dtype as PyTorch does: use float64). The analytic Jacobian is computed twice and must
agree with itself within ``nondet_tol`` (a backward that is not reentrant fails even when its
values are right). ``fast_mode`` compares one random projection v^T J u of each Jacobian
instead of the whole matrix (and recomputes the full Jacobians only to explain a failure). Then
PyTorch's two further checks: a zero grad_output must give zero gradients, and a backward must
accept undefined (None) output gradients. ``raise_exception=False`` turns a failed check into
``False``.

``check_forward_ad`` (and gradgradcheck's ``check_fwd_over_rev``) compare forward-mode AD's
Jacobians, one dual pass per input element, with the same finite differences.

Complex numbers follow PyTorch: the backward checks see a function with complex outputs as two
real functions (the imaginary parts, then the real parts), and differentiate numerically with
respect to a complex input by the conjugate Wirtinger derivative d/dx + i d/dy, which is what a
backward computes; the forward checks split complex inputs into their imaginary and real parts.
``check_batched_grad`` (and ``check_batched_forward_grad``) compare ``vmap`` of a vector-Jacobian
(Jacobian-vector) product over two stacked random vectors with the two products taken one at a
time. tapegrad's ``vmap`` loops in Python, so these checks exercise the per-example machinery
(``is_grads_batched``, slices of stacked vectors) rather than batching rules.
"""
import warnings

import numpy as np

from .. import ops
from ..tensor import Tensor
from .engine import grad as autograd_grad
from . import grad_mode
from .function import BackwardCFunction, Function

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """A check of ``gradcheck`` or ``gradgradcheck`` failed."""


GradcheckError.__module__ = "torch.autograd.gradcheck"

FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()

_UNDEFINED_GRAD_NOTE = 'Please look at "Notes about undefined output gradients" in ' \
    '"tools/autograd/derivatives.yaml"'


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True when ``func``'s backward agrees with finite differences at ``inputs`` (see the
    module's docstring); a failed check raises ``GradcheckError``, or returns False when
    ``raise_exception`` is False. ``masked`` concerns sparse tensors, which tapegrad has not."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    try:
        return _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                                 check_grad_dtypes, fast_mode, check_forward_ad,
                                 check_backward_ad, check_batched_grad,
                                 check_batched_forward_grad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                      check_grad_dtypes, fast_mode, check_forward_ad, check_backward_ad,
                      check_batched_grad, check_batched_forward_grad):
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    func_out = func(*inputs)
    outputs = _differentiable_outputs(func_out)
    # PyTorch's order: the backward Jacobians first, then the forward ones
    if check_backward_ad:
        check = _fast_gradcheck if fast_mode else _slow_gradcheck
        for part_func, part_out, part in _output_parts(func, func_out, inputs):
            check(part_func, part_out, inputs, _differentiable_outputs(part_out), eps, rtol, atol,
                  check_grad_dtypes, nondet_tol, part)
    if check_forward_ad:
        for part_func, part_inputs, part in _input_parts(func, inputs):
            _check_forward_ad(part_func, part_func(*part_inputs), part_inputs, eps, rtol, atol,
                              part)
    if check_batched_forward_grad:
        _test_batched_forward_grad(func, inputs)
    if not check_backward_ad:
        return True
    if check_batched_grad:
        for index, output in enumerate(outputs):
            _test_batched_grad(inputs, output, index)
    _test_backward_mul_by_grad_output(outputs, inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, inputs)
    return True


# ------------------------------------------------------------------ inputs and outputs


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable_outputs(x):
    """The outputs requiring grad; an output that is not a tensor fails here (AttributeError)
    as in PyTorch."""
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _inexact_outputs(x):
    """The floating and complex outputs: those finite differences can see."""
    return tuple(o for o in _as_tuple(x) if isinstance(o, Tensor) and o._array.dtype.kind in "fc")


def _differentiable_inputs(inputs):
    return [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]


def _check_inputs(inputs):
    """PyTorch's warning for inputs that are not float64, its refusal of a stride-0 dimension
    (the perturbation of one element would move several), and of no input requiring grad."""
    any_requires_grad = False
    for index, t in enumerate(inputs):
        if not (isinstance(t, Tensor) and t.requires_grad):
            continue
        if t._array.dtype not in (np.float64, np.complex128):
            warnings.warn(f"Input #{index} requires gradient and is not a double precision "
                          "floating point or complex. This check will likely fail if all the "
                          "inputs are not of double precision floating point or complex. ",
                          stacklevel=3)
        if not all(stride > 0 or size <= 1 for stride, size in zip(t.stride(), t.shape)):
            raise RuntimeError(
                f"The {index}th input has a dimension with stride 0. gradcheck only supports "
                "inputs that are non-overlapping to be able to compute the numerical gradients "
                "correctly. You should call .contiguous on the input before passing it to "
                "gradcheck.")
        any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but "
                         "none of them have requires_grad=True.")


# ------------------------------------------------------------------ complex numbers


class _Part:
    """The part (real or imaginary) of the complex outputs (backward checks) or inputs (forward
    checks) that a check considers: PyTorch checks each as a real function of its own."""

    def __init__(self, name=None, what=None, indices=()):
        self.name, self.what, self.indices = name, what, indices

    def prefix(self, index):
        """The start of a failure message about output (or input) ``index``."""
        if index not in self.indices:
            return ""
        return f"While considering the {self.name} part of complex {self.what} only, "


_WHOLE = _Part()


def _output_parts(func, func_out, inputs):
    """(function, its outputs, part) for the backward checks: ``func`` itself, or, when some
    differentiable output is complex, the imaginary then the real parts of its outputs."""
    indices = [i for i, o in enumerate(_differentiable_outputs(func_out)) if o.is_complex()]
    if not indices:
        return [(func, func_out, _WHOLE)]
    parts = []
    for name, take in (("imaginary", lambda o: o.imag), ("real", lambda o: o.real)):
        def part_func(*args, take=take):
            return tuple(take(o) if isinstance(o, Tensor) and o.is_complex() else o
                         for o in _as_tuple(func(*args)))
        parts.append((part_func, part_func(*inputs), _Part(name, "outputs", indices)))
    return parts


def _input_parts(func, inputs):
    """(function, its inputs, part) for the forward checks: ``func`` itself, or, when some input
    is complex, functions of the imaginary then the real parts of the complex inputs (the other
    part held at its value)."""
    indices = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.is_complex()]
    if not indices:
        return [(func, inputs, _WHOLE)]
    parts = []
    for name, take, rebuild in (("imaginary", lambda t: t.imag, lambda x, t: t.real + x * 1j),
                                ("real", lambda t: t.real, lambda x, t: x + t.imag * 1j)):
        def part_func(*args, rebuild=rebuild):
            return _as_tuple(func(*(rebuild(x, t) if i in indices else x
                                    for i, (x, t) in enumerate(zip(args, inputs)))))
        part_inputs = tuple(take(t).detach().clone().requires_grad_(t.requires_grad)
                            if i in indices else t for i, t in enumerate(inputs))
        parts.append((part_func, part_inputs, _Part(name, "inputs", indices)))
    return parts


# ------------------------------------------------------------------ numerical derivatives


def _central_differences(func, inputs, t, delta, eps):
    """(f(x + delta) - f(x - delta)) / (2 eps) for each floating output, flattened, with ``t``
    (one of ``inputs``) moved by ``delta`` in place and restored; computed in each output's
    dtype."""
    original = t._array.copy()
    outputs = []
    for sign in (-1, 1):
        t._array[...] = original + sign * delta
        outputs.append(tuple(o.detach().clone() for o in _inexact_outputs(func(*inputs))))
    t._array[...] = original
    differences = []
    for minus, plus in zip(*outputs):
        _check_same_dtype_and_shape(minus, plus, eps)
        two_eps = plus._array.dtype.type(2 * eps)
        differences.append((plus._array - minus._array).reshape(-1) / two_eps)
    return differences


def _numerical_jvps(func, inputs, t, delta, eps):
    """The directional derivatives of the outputs along ``delta``; for a complex input, PyTorch's
    conjugate Wirtinger derivative d/dx + i d/dy (along ``delta`` and ``i delta``), which is what
    its backward computes for a real output."""
    along_x = _central_differences(func, inputs, t, delta, eps)
    if t._array.dtype.kind != "c":
        return along_x
    along_y = _central_differences(func, inputs, t, delta * 1j, eps)
    return [dx + dy * 1j for dx, dy in zip(along_x, along_y)]


def _check_same_dtype_and_shape(minus, plus, eps):
    for what, a, b in (("shape", minus.shape, plus.shape), ("dtype", minus.dtype, plus.dtype)):
        if a != b:
            raise AssertionError(f"Expected `func` to return outputs with the same {what} when "
                                 f"inputs are perturbed by {eps}, but got: {what}s {a} and {b}.")


def _numerical_jacobians(func, inputs, func_out, eps):
    """[input][output] -> d output / d input, (input numel, output numel), in the output's
    dtype: one column of central differences per input element."""
    outputs = _inexact_outputs(func_out)
    jacobians = []
    for t in _differentiable_inputs(inputs):
        per_output = [np.zeros((t._array.size, o._array.size), _numerical_dtype(o, t))
                      for o in outputs]
        for k in range(t._array.size):
            delta = np.zeros(t._array.shape, t._array.dtype)
            delta[np.unravel_index(k, t._array.shape)] = eps
            for jacobian, column in zip(per_output, _numerical_jvps(func, inputs, t, delta, eps)):
                jacobian[k] = column
        jacobians.append(per_output)
    return jacobians


def _numerical_dtype(output, t):
    """The output's dtype, made complex for a complex input (its Wirtinger derivatives)."""
    dtype = output._array.dtype
    return np.result_type(dtype, np.complex64) if t._array.dtype.kind == "c" else dtype


def _check_no_differentiable_outputs(func, inputs, func_out, eps):
    for per_output in _numerical_jacobians(func, inputs, func_out, eps):
        if any((jacobian != 0).any() for jacobian in per_output):
            raise GradcheckError("Numerical gradient for function expected to be zero")


# ------------------------------------------------------------------ analytical derivatives


def _vjps(output, wrt, grad_output):
    """One vector-Jacobian product per input (None: the input was not reached)."""
    return autograd_grad(output, wrt, Tensor._make(grad_output), retain_graph=True,
                         allow_unused=True)


def _jacobian_columns(output, wrt, grad_outputs):
    """[input] -> (input numel, len(grad_outputs)): the products with each grad_output, as
    columns (zero for an input not reached), and whether every gradient had its input's dtype."""
    columns = [np.zeros((t._array.size, len(grad_outputs)), t._array.dtype) for t in wrt]
    dtypes_ok = True
    for j, grad_output in enumerate(grad_outputs):
        for i, (t, g) in enumerate(zip(wrt, _vjps(output, wrt, grad_output))):
            if g is None:
                continue
            if g.shape != t.shape:
                raise GradcheckError("Analytical gradient has incorrect size")
            dtypes_ok &= g._array.dtype == t._array.dtype
            columns[i][:, j] = g._array.reshape(-1)
    return columns, dtypes_ok


def _checked_analytical_jacobians(inputs, output, grad_outputs, nondet_tol, check_grad_dtypes):
    """The products computed twice, which must agree within ``nondet_tol`` (reentrancy)."""
    wrt = _differentiable_inputs(inputs)
    first, dtypes_ok = _jacobian_columns(output, wrt, grad_outputs)
    second, _ = _jacobian_columns(output, wrt, grad_outputs)
    # as PyTorch's: a NaN difference does not count as nondeterminism
    reentrant = not any(a.size and np.abs(a - b).max() > nondet_tol
                        for a, b in zip(first, second))
    if not dtypes_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and grad_output "
            "multiple times gives different values, although analytical gradient matches "
            f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
            + FAILED_NONDET_MSG)
    return first


def _unit_grad_outputs(output):
    """The basis vectors e_k shaped as ``output``: the rows of its Jacobian."""
    size, shape = output._array.size, output._array.shape
    return [np.eye(1, size, k, dtype=output._array.dtype).reshape(shape) for k in range(size)]


def _analytical_jacobian(inputs, output):
    return _jacobian_columns(output, _differentiable_inputs(inputs),
                             _unit_grad_outputs(output))[0]


# ------------------------------------------------------------------ slow and fast modes


def _allclose(a, b, rtol, atol):
    dtype = np.promote_types(a.dtype, b.dtype)
    return bool(np.allclose(a.astype(dtype), b.astype(dtype), rtol=rtol, atol=atol))


def _notallclose_msg(analytical, numerical, output_index, input_index, part=_WHOLE,
                     forward_mode=False):
    """The Jacobians as tensors (fast mode's projections as numbers, as PyTorch prints them);
    the message says when the analytical one came from forward-mode AD, and which part of a
    complex output (backward) or input (forward) was checked."""
    mode = "computed with forward mode " if forward_mode else ""
    return (part.prefix(input_index if forward_mode else output_index)
            + f"Jacobian {mode}mismatch for output {output_index:d} with respect to input "
            f"{input_index:d},\nnumerical:{_shown(numerical)}\nanalytical:{_shown(analytical)}\n")


def _shown(value):
    if isinstance(value, Tensor):
        return repr(value)
    return repr(value.item()) if np.ndim(value) == 0 else repr(Tensor._make(value))


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                    nondet_tol, part=_WHOLE):
    """Whole Jacobians, every (output, input) pair; a function without differentiable outputs
    must have a zero numerical Jacobian."""
    if not outputs:
        return _check_no_differentiable_outputs(func, inputs, func_out, eps)
    numerical = _numerical_jacobians(func, inputs, func_out, eps)
    differentiable = [o.requires_grad for o in _inexact_outputs(func_out)]
    numerical = [[n for n, keep in zip(per_output, differentiable) if keep]
                 for per_output in numerical]
    for i, output in enumerate(outputs):
        analytical = _checked_analytical_jacobians(inputs, output, _unit_grad_outputs(output),
                                                   nondet_tol, check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, (per_output[i] for per_output in numerical))):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_notallclose_msg(a, n, i, j, part))


def _check_forward_ad(func, func_out, inputs, eps, rtol, atol, part=_WHOLE):
    """Forward-mode Jacobians, one dual pass per input element (whatever ``fast_mode``),
    against the finite differences; output by output, as PyTorch reports the first mismatch."""
    numerical = _numerical_jacobians(func, inputs, func_out, eps)
    forward = [_forward_jacobians(func, inputs, t, _inexact_outputs(func_out))
               for t in _differentiable_inputs(inputs)]
    for i in range(len(_inexact_outputs(func_out))):
        for j, per_input in enumerate(forward):
            if not _allclose(per_input[i].detach()._array, numerical[j][i], rtol, atol):
                raise GradcheckError(_notallclose_msg(per_input[i], numerical[j][i], i, j, part,
                                                      forward_mode=True))


def _forward_jacobians(func, inputs, t, outputs):
    """The Jacobians of ``outputs`` with respect to the input ``t``, row k from one dual pass
    (inputs detached) with the k-th unit tangent, copied in as PyTorch does (so a tangent that
    requires grad leaves a CopySlices node on the Jacobian)."""
    from . import forward_ad
    jacobians = [ops.zeros((t._array.size, o._array.size), dtype=o.dtype) for o in outputs]
    for k in range(t._array.size):
        tangent = Tensor._make(np.eye(1, t._array.size, k, dtype=t._array.dtype)
                               .reshape(t._array.shape))
        with forward_ad.dual_level():
            dual = forward_ad.make_dual(t.detach(), tangent)
            results = func(*(dual if x is t else _detached(x) for x in inputs))
            for jacobian, output in zip(jacobians, _inexact_outputs(results)):
                derivative = forward_ad.unpack_dual(output).tangent
                if derivative is not None:
                    jacobian[k].copy_(derivative.reshape(-1))
    return jacobians


def _random_unit_vector(t, rng):
    """A random real direction with non-negative entries and norm 1, in ``t``'s (real) dtype."""
    vector = rng.random(t._array.size).astype(t._array.real.dtype)
    return vector / np.linalg.norm(vector)


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                    nondet_tol, part=_WHOLE):
    """v^T J u for random unit u (per input) and v (per output): numerically v . (J u) with
    J u by central differences along u, analytically (v^T J) . u with one backward per output.
    The tolerance scales as the entries' sum does: atol sum(u) sum(v)."""
    rng = np.random.default_rng(0)  # its own generator: the user's random state is untouched
    wrt = _differentiable_inputs(inputs)
    all_u = [_random_unit_vector(t, rng) for t in wrt]
    all_v = [_random_unit_vector(o, rng) for o in outputs]
    jvps = [_numerical_jvps(func, inputs, t, eps * u.reshape(t._array.shape), eps)
            for t, u in zip(wrt, all_u)]
    if not outputs:
        for ju in (ju for per_input in jvps for ju in per_input if ju.size):
            if np.abs(ju).max() > nondet_tol:
                raise GradcheckError("Numerical gradient for function expected to be zero")
    differentiable = [o.requires_grad for o in _inexact_outputs(func_out)]
    jvps = [[ju for ju, keep in zip(per_input, differentiable) if keep] for per_input in jvps]
    for j, (output, v) in enumerate(zip(outputs, all_v)):
        vj = _checked_analytical_jacobians(inputs, output, [v.reshape(output._array.shape)],
                                           nondet_tol, check_grad_dtypes)
        for i, (u, per_input, vj_i) in enumerate(zip(all_u, jvps, vj)):
            ju = per_input[j]
            analytical, numerical = np.dot(vj_i[:, 0], u), np.dot(v, ju)
            if not _allclose(analytical, numerical, rtol, atol * u.sum() * v.sum()):
                raise GradcheckError(
                    _notallclose_msg(analytical, numerical, j, i, part)
                    + _slow_mode_explanation(func, inputs, func_out, outputs, i, j, rtol, atol,
                                             eps))


def _slow_mode_explanation(func, inputs, func_out, outputs, input_index, output_index, rtol,
                           atol, eps):
    """PyTorch's addendum to a fast-mode failure: the full Jacobians of that pair."""
    numerical = _numerical_jacobians(func, inputs, func_out, eps)[input_index][output_index]
    analytical = _analytical_jacobian(inputs, outputs[output_index])[input_index]
    message = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background "
        "\nabout fast mode. Below, we recompute numerical and analytical jacobians in slow mode:"
        f"\n\nNumerical:\n {Tensor._make(numerical)!r}\nAnalytical:\n"
        f"{Tensor._make(analytical)!r}\n\nThe max per-element difference (slow mode) is: "
        f"{float(np.abs(numerical - analytical).max(initial=0))!r}.\n")
    if _allclose(analytical, numerical, rtol, atol):
        message += FAST_FAIL_SLOW_OK_MSG
    return message


# ------------------------------------------------------------------ the further checks


def _test_backward_mul_by_grad_output(outputs, inputs):
    """A zero grad_output must give zero gradients, of the inputs' dtype and size."""
    wrt = _differentiable_inputs(inputs)
    grads = autograd_grad(outputs, wrt, [Tensor._make(np.zeros_like(o._array)) for o in outputs],
                          allow_unused=True)
    for g, t in zip(grads, wrt):
        if g is None:
            continue
        if not (g._array == 0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if g._array.dtype != t._array.dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != t.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Function):
    """Identity whose backward passes no gradient (None): PyTorch's undefined grad."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return None


def _test_undefined_backward_mode(func, outputs, inputs):
    """The backward must accept undefined (None) gradients for all its outputs at once, and for
    each one alone, and then give no or zero gradients."""
    wrt = _differentiable_inputs(inputs)
    cases = [[_UndefinedGrad.apply(o) for o in _differentiable_outputs(func(*inputs))]]
    if len(cases[0]) > 1:
        for undefined in range(len(outputs)):
            cases.append([_UndefinedGrad.apply(o) if index == undefined else o
                          for index, o in enumerate(_differentiable_outputs(func(*inputs)))])
    for number, case in enumerate(cases):
        grad_outputs = [Tensor._make(np.zeros_like(o._array)) for o in case]
        try:
            unreached = _custom_backwards_without_gradients(case) if number == 0 else ()
            grads = autograd_grad(case, wrt, grad_outputs, allow_unused=True) + unreached
        except RuntimeError as error:
            _warn_bc_breaking()
            raise GradcheckError("Expected backward function to handle undefined output grads. "
                                 + _UNDEFINED_GRAD_NOTE) from error
        if any(g is not None and not (g._array == 0).all() for g in grads):
            _warn_bc_breaking()
            raise GradcheckError("Expected all input grads to be undefined or zero when all "
                                 "output grads are undefined or zero. " + _UNDEFINED_GRAD_NOTE)


def _custom_backwards_without_gradients(wrapped_outputs):
    """What the custom Functions that made the outputs return when no gradient at all is defined
    for them. tapegrad's engine does not run a node that no gradient reached, where PyTorch's
    calls it with undefined gradients: a custom ``backward`` (with ``set_materialize_grads(False)``,
    None for each output) must then cope."""
    nodes = {o.grad_fn.next_functions[0][0]: None for o in wrapped_outputs}
    with grad_mode.no_grad():
        return tuple(g for node in nodes if isinstance(node, BackwardCFunction)
                     for g in node.apply(()))


def _warn_bc_breaking():
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is "
                  "enabled by default, but it may break existing callers of this function. If "
                  "this is true for you, you can call this function with "
                  '"check_undefined_grad=False" to disable the feature', stacklevel=4)


# ------------------------------------------------------------------ batched gradients

FAILED_BATCHED_GRAD_MSG = """\
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this."""

FAILED_BATCHED_GRAD_MSG_FWD_AD = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


def _test_batched_grad(inputs, output, output_index):
    """``vmap`` of the vector-Jacobian product of ``output`` over two stacked random
    grad_outputs must give the two products taken one at a time."""
    wrt = _differentiable_inputs(inputs)

    def vjp(v):
        grads = autograd_grad(output, wrt, v, retain_graph=True, allow_unused=True)
        return tuple(_zeros_if_none(g, t) for g, t in zip(grads, wrt))

    _compare_batched(vjp, [_random_normal_like(output) for _ in range(2)],
                     lambda i: (output_index, i), FAILED_BATCHED_GRAD_MSG)


def _test_batched_forward_grad(func, inputs):
    """For each input requiring grad: ``vmap`` of the Jacobian-vector product over two stacked
    random tangents must give the two products taken one at a time."""
    from . import forward_ad
    for index, current in enumerate(inputs):
        if not (isinstance(current, Tensor) and current.requires_grad):
            continue

        def jvp(tangent, index=index, current=current):
            with forward_ad.dual_level():
                dual = forward_ad.make_dual(current.detach(), tangent)
                outputs = _as_tuple(func(*(dual if i == index else _detached(x)
                                           for i, x in enumerate(inputs))))
                unpacked = [forward_ad.unpack_dual(o) for o in outputs if o is not None]
                return tuple(_zeros_if_none(u.tangent, u.primal) for u in unpacked)

        # PyTorch's message numbers both the output and the input by the output's position
        _compare_batched(jvp, [_random_normal_like(current) for _ in range(2)],
                         lambda i: (i, i), FAILED_BATCHED_GRAD_MSG_FWD_AD)


def _compare_batched(product, vectors, labels, note):
    """``vmap(product)`` over the stacked ``vectors`` against ``product`` of each; ``labels(i)``
    gives the (output, input) numbers the message names for result ``i``."""
    from ..func import vmap
    expected = [ops.stack(shards) for shards in zip(*(product(v) for v in vectors))]
    try:
        result = vmap(product)(ops.stack(vectors))
    except RuntimeError as error:
        raise GradcheckError(f"While computing batched gradients, got: {error}\n\n{note}") \
            from error
    for index, (res, exp) in enumerate(zip(result, expected)):
        if not _allclose(res.detach()._array, exp.detach()._array, 1e-05, 1e-08):
            output_number, input_number = labels(index)
            raise GradcheckError(f"For output {output_number} and input {input_number}:\n\n"
                                 f"{note}\n\nGot:\n{res}\n\nExpected:\n{exp}".strip())


def _zeros_if_none(gradient, like):
    if gradient is not None:
        return gradient
    return Tensor._make(np.broadcast_to(np.zeros((), like._array.dtype), like._array.shape))


def _detached(x):
    return x.detach() if isinstance(x, Tensor) else x


def _random_normal_like(t):
    """Standard normal values in ``t``'s dtype, from a generator of its own (the user's random
    state is untouched)."""
    rng = np.random.default_rng()
    return Tensor._make(rng.standard_normal(t._array.shape).astype(t._array.dtype))


# ------------------------------------------------------------------ gradgradcheck


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the gradients themselves (the rules run under ``create_graph``), with
    respect to the inputs and to ``grad_outputs`` (random in [-1, 1) when not given)."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs)
                             for o in _differentiable_outputs(func(*inputs)))
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)
    differentiable_inputs = {i for i, t in enumerate(inputs)
                             if isinstance(t, Tensor) and t.requires_grad}

    differentiable_grad_outputs = {i for i, g in enumerate(grad_outputs)
                                   if isinstance(g, Tensor) and g.requires_grad}

    def first_derivatives(*args):
        # the checks may pass detached inputs (forward AD does): requires_grad is restored
        function_inputs = _requiring_grad(args[:-count] if count else args, differentiable_inputs)
        given_grads = _requiring_grad(args[len(function_inputs):], differentiable_grad_outputs)
        outputs = _differentiable_outputs(func(*function_inputs))
        wrt = tuple(t for i, t in enumerate(function_inputs) if i in differentiable_inputs)
        grads = autograd_grad(outputs, wrt, given_grads, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad,
                     check_grad_dtypes=check_grad_dtypes, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev, masked=masked)


def _requiring_grad(args, positions):
    return tuple(x.requires_grad_() if i in positions else x for i, x in enumerate(args))


def _random_grad_output(output, noncontiguous):
    """Uniform in [-1, 1) (both parts of a complex number), the output's dtype (float64 for an
    integer output), requiring grad; a strided view of a larger array when ``noncontiguous``."""
    dtype = output._array.dtype if output._array.dtype.kind in "fc" else np.dtype(np.float64)
    shape = output._array.shape
    if noncontiguous and shape:
        wide = _uniform_values(shape[:-1] + (2 * shape[-1],), dtype)
        return Tensor._make(wide)[..., ::2].detach().requires_grad_()
    return Tensor._make(_uniform_values(shape, dtype)).requires_grad_()


def _uniform_values(shape, dtype):
    rng = np.random.default_rng()
    values = rng.uniform(-1, 1, shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-1, 1, shape)
    return values.astype(dtype)
