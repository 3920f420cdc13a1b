"""Differences found by differential fuzzing of compiled against eager tapegrad (fzc): random
programs of elementwise ops, reductions, products, shape ops, indexing and in-place writes, and
whole training steps, each run eagerly and compiled (values, ``.grad``, in-place effects,
``_version``, grad_fn, errors).

Fixed: a tensor that comes to require grad by an in-place write (``y.copy_(x)``) did not in the
compiled call; a gradient no cotangent reaches (zero, through ``floor``) crashed code generation; the
0-d ``log_softmax`` backward (eager too) raised a TypeError; outputs whose tape a ``backward()``
inside the call freed shared one output slot (a shape error, or a gradient added into another
output's); a returned view of an argument (``x[1:]``, ``x.t()``, ``x.detach()``) was a copy
from the kernel, which later writes into it or into the argument did not reach; a mutated
argument's ``_version`` was bumped once per call, not once per write as eager bumps it (twice by
AdamW, never through ``.data``, once by an in-place view op on a view of it); ``repeat()`` of a kernel running an op without a lowering
(``mse_loss``) failed to compile its loop; the compiled backward differentiated through writes
autograd does not record (a parameter updated under ``no_grad``, ``p.data.clamp_()``) and lost
the history of a tensor written through a detached alias; a returned intermediate's
``_version`` was 0 whatever the writes into it; ``x[i]`` with a traced 0-d tensor ``i`` baked
the traced index into the graph, and a write through a view's ``.data`` went unseen (both are
graph breaks now).
"""
import numpy as np
import pytest

import tapegrad

from compile_helpers import assert_close, kernel_cache  # noqa: F401


def _zero_gradients(a, b, s):
    copied = (b * 2).detach()
    copied.copy_(a)  # (requires grad from now on)
    return tapegrad.maximum(a, b).floor(), s.log_softmax(0), copied


def test_a_gradient_no_cotangent_reaches_is_zero_and_a_0d_log_softmax_differentiates():
    compiled = tapegrad.compile(_zero_gradients)
    for function in (_zero_gradients, compiled, compiled):
        a = tapegrad.tensor(0.3, requires_grad=True)
        b = tapegrad.tensor([0.1, 0.5, -1.0, 2.0], requires_grad=True)
        s = tapegrad.tensor(0.7, dtype=tapegrad.float64, requires_grad=True)
        floor, log_softmax, copied = function(a, b, s)
        assert copied.requires_grad and copied.grad_fn is not None
        (floor.sum() + log_softmax + copied.sum()).backward()
        assert_close(floor, tapegrad.tensor([0.0, 0.0, 0.0, 2.0]))
        assert_close(log_softmax, tapegrad.tensor(0.0, dtype=tapegrad.float64))
        assert_close(copied, tapegrad.full((4,), 0.3))
        assert_close(a.grad, tapegrad.tensor(4.0))
        assert_close(b.grad, tapegrad.zeros(4))
        assert_close(s.grad, tapegrad.tensor(0.0, dtype=tapegrad.float64))


def _backward_inside(x, w):
    y = tapegrad.hypot(x, x)
    rows = y[:, 1:]
    (y.sum() + rows.sum()).backward()
    return y, rows, (x * w).tanh()


def test_outputs_whose_tape_was_freed_raise_as_eager_and_leave_the_others_alone():
    compiled = tapegrad.compile(_backward_inside)
    for function in (_backward_inside, compiled, compiled):
        for freed in (0, 1):
            x = tapegrad.tensor(np.linspace(-1, 1, 6).reshape(2, 3), requires_grad=True)
            w = tapegrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
            outputs = function(x, w)
            with pytest.raises(RuntimeError, match="backward through the graph a second time"):
                (outputs[0].sum() + outputs[1].sum()).backward()
            with pytest.raises(RuntimeError, match="backward through the graph a second time"):
                outputs[freed].sum().backward()
            w.grad = None
            outputs[2].sum().backward()
            expected = (1 - np.tanh(x._array * w._array) ** 2) * x._array
            assert_close(w.grad, expected.sum(0).astype(np.float32), what=f"w.grad after {freed}")


def _views(x, y, w):
    y.unsqueeze(-1).squeeze_(-1)  # (bumps y's version, as a write would)
    return x[1:], x.t(), x.detach(), y.chunk(2)[1], y.view(-1)[2:], w.unsqueeze(0), x * w


def _run_views(function):
    x = tapegrad.ones(3, 4)
    y = tapegrad.ones(4, 2)
    w = tapegrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    outputs = function(x, y, w)
    (outputs[5].sum() * 2 + outputs[6].sum()).backward()
    flags = [(o.requires_grad, o.grad_fn is None, o._base is None, o._version)
             for o in outputs[:5]]  # (views with a grad_fn come from the kernel)
    outputs[0].mul_(2)
    outputs[3].add_(1)
    outputs[4].add_(3)
    outputs[2][0, 0] = 5.0
    return (x, y, w.grad, [o._array.copy() for o in outputs[:6]],
            [(t._version, o._version) for t, o in [(x, outputs[1]), (y, outputs[3])]], flags)


def test_returned_views_of_arguments_alias_them_as_eager_does():
    compiled = tapegrad.compile(_views)
    eager = _run_views(_views)
    compiled(tapegrad.ones(3, 4), tapegrad.ones(4, 2), tapegrad.ones(4, requires_grad=True))
    result = _run_views(compiled)
    for e, c in zip(eager[:3], result[:3]):
        assert_close(c, e)
    for e, c in zip(eager[3], result[3]):
        assert_close(c, e)
    assert result[4:] == eager[4:]
    with tapegrad.no_grad():  # (a view of a leaf made under no_grad still requires grad)
        view = compiled(tapegrad.ones(3, 4), tapegrad.ones(4, 2),
                        tapegrad.ones(4, requires_grad=True))[5]
    assert view.requires_grad and view.grad_fn is None


def _step(x, w, buffer, target):
    """A training step with two writes into ``w`` (as AdamW's decay and update), a write through
    ``.data`` (no bump of ``buffer``'s version, as in eager) and a loss without a lowering."""
    w.grad.zero_()
    loss = tapegrad.nn.functional.mse_loss(w * x, target)
    loss.backward()
    with tapegrad.no_grad():
        w.mul_(0.9)
        w.sub_(0.1 * w.grad)
    buffer.data.add_(1)
    return loss


def _run_steps(function, repeat):
    x = tapegrad.tensor([1.0, -2.0, 0.5])
    target = tapegrad.tensor([0.5, 0.5, -1.0])
    w = tapegrad.tensor([0.3, -0.2, 0.8], requires_grad=True)
    w.grad = tapegrad.zeros(3)
    buffer = tapegrad.zeros(2)
    losses = [function(x, w, buffer, target) for _ in range(2)]
    losses.append(repeat(3, x, w, buffer, target))
    return losses, w, buffer, (w._version, w.grad._version, buffer._version)


def test_a_step_bumps_versions_as_eager_and_repeats_with_a_numpy_fallback_inside():
    compiled = tapegrad.compile(_step)
    eager = _run_steps(_step, lambda n, *args: [_step(*args) for _ in range(n)][-1])
    result = _run_steps(compiled, compiled.repeat)
    assert "mse_loss" in str(compiled.explain())  # (run by numpy inside the kernel)
    for e, c in zip(eager[0], result[0]):
        assert_close(c, e)
    assert_close(result[1], eager[1])
    assert_close(result[1].grad, eager[1].grad)
    assert_close(result[2], eager[2])
    assert result[3] == eager[3]


def _untaped_writes(x, p, q):
    """Writes autograd does not record: into a parameter under no_grad and through ``.data``
    (its gradient is the one of the updated value, not through the update), and into a detached
    alias of an intermediate (which keeps its history)."""
    with tapegrad.no_grad():
        p.mul_(0.5)
    q.data.clamp_(-1, 1)
    y = tapegrad.nn.functional.softplus(x)
    y.detach().clamp_min_(1.0)
    return (p * x).sum() + (q * x * x).sum(), y


def test_gradients_pass_writes_that_autograd_does_not_record():
    compiled = tapegrad.compile(_untaped_writes)
    results = []
    for function in (_untaped_writes, compiled, compiled):
        x = tapegrad.tensor([1.0, 2.0, -3.0], requires_grad=True)
        p = tapegrad.tensor([1.0, -3.0, 2.0], requires_grad=True)
        q = tapegrad.tensor([0.5, -3.0, 2.0], requires_grad=True)
        total, y = function(x, p, q)
        (total + y.sum()).backward()
        results.append((total, y, x.grad, p.grad, q.grad, p, q, (y._version, p._version)))
    eager = results[0]
    for result in results[1:]:
        for e, c in zip(eager[:-1], result[:-1]):
            assert_close(c, e)
        assert result[-1] == eager[-1]
    assert_close(eager[3], tapegrad.tensor([1.0, 2.0, -3.0]))  # x, not 0.5 x


def _pick(x):
    return x[x.argmax()] * 2


def _write_through_data(x):
    x[1].data.mul_(2)
    return x * 1


@pytest.mark.parametrize("function", [_pick, _write_through_data])
def test_a_0d_index_and_a_write_through_a_views_data_break_the_graph(function):
    compiled = tapegrad.compile(function)
    with pytest.warns(tapegrad.compile.CompileWarning, match="graph break"):
        compiled(tapegrad.tensor([1.0, 3.0, 2.0]))
    for values in ([5.0, 3.0, 2.0], [1.0, 3.0, 7.0]):
        x, y = tapegrad.tensor(values), tapegrad.tensor(values)
        assert_close(compiled(x), function(y))
        assert_close(x, y)
