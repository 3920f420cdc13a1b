"""Forward-mode AD (torch.autograd.forward_ad): tangents carried through every kind of operation,
checked against finite differences (gradcheck's check_forward_ad) and against PyTorch."""
import numpy as np
import pytest

import tapegrad
import tapegrad.autograd.forward_ad as fwAD
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.nn import functional as F
from tapegrad.ops import registry


def f64(*shape, low=-1.0, high=1.0, seed=0):
    rng = np.random.default_rng(seed + sum(shape))
    return tapegrad.tensor(rng.uniform(low, high, shape), requires_grad=True)


CASES = {
    "unary": (lambda a: a.exp() + a.sin() * a.tanh() - a.sigmoid() + a.relu() + a.abs(),
              [f64(3, 4)]),
    "log sqrt": (lambda a: (a * a + 1).log() + (a * a + 0.5).sqrt(), [f64(5)]),
    "binary broadcast": (lambda a, b: a * b - a / (b * b + 1) + a.pow(2) + tapegrad.maximum(a, b),
                         [f64(3, 1), f64(1, 4)]),
    "pow tensor": (lambda a, b: (a * a + 1).pow(b), [f64(3), f64(3)]),
    "where clamp": (lambda a: tapegrad.where(a > 0, a * 3, a.clamp(-0.5, 0.5)), [f64(6)]),
    "reductions": (lambda a: tapegrad.stack([a.sum(), a.mean(), a.amax(), a.logsumexp(1).sum(),
                                             a.var(), a.std(0).sum(), a.norm()]), [f64(3, 4)]),
    "max dim": (lambda a: a.max(dim=1).values, [f64(3, 4)]),
    "shapes": (lambda a: a.reshape(2, 6).T.flatten().unsqueeze(0).expand(2, 12)
               .permute(1, 0)[2:7:2], [f64(3, 4)]),
    "cat stack index": (lambda a, b: tapegrad.cat([a, b]).gather(0, tapegrad.tensor([[1, 0],
                        [2, 1]]))[:, 1] + tapegrad.stack([a[0], b[1]])[1],
                        [f64(2, 2), f64(2, 2)]),
    "matmul": (lambda a, b: (a @ b).tanh() @ b.T, [f64(3, 4), f64(4, 2)]),
    "einsum bmm": (lambda a, b: tapegrad.einsum("bij,bjk->bik", a, b) + a.bmm(b),
                   [f64(2, 2, 3), f64(2, 3, 2)]),
    "linalg": (lambda a: tapegrad.linalg.inv(a + 3 * tapegrad.eye(3, dtype=tapegrad.float64))
               .sum() + tapegrad.linalg.det(a), [f64(3, 3)]),
    "softmax family": (lambda a: F.softmax(a, 1) + F.log_softmax(a, 0) + F.gelu(a),
                       [f64(3, 4)]),
    "losses": (lambda a, b: F.mse_loss(a, b) + F.cross_entropy(a, tapegrad.tensor([1, 0, 3])),
               [f64(3, 4), f64(3, 4)]),
    "layer norm": (lambda a, w: F.layer_norm(a, (4,), w), [f64(3, 4), f64(4)]),
    "conv2d": (lambda x, w: F.conv2d(x, w, padding=1), [f64(1, 2, 4, 4), f64(3, 2, 3, 3)]),
    "in place": (lambda a: a.clone().mul_(2).add_(a).sub_(1), [f64(4)]),
    "setitem": (lambda a, b: _setitem(a, b), [f64(4), f64(2)]),
}


def _setitem(a, b):
    c = a.clone()
    c[1:3] = b * 2
    c[0] = 5.0
    return c


@pytest.mark.parametrize("name", CASES)
def test_forward_mode_jacobians_match_finite_differences(name):
    function, inputs = CASES[name]
    assert gradcheck(function, inputs, check_forward_ad=True, check_backward_ad=False,
                     check_undefined_grad=False)


@pytest.mark.parametrize("name", ["unary", "matmul", "softmax family", "layer norm"])
def test_forward_over_reverse_matches_finite_differences(name):
    function, inputs = CASES[name]
    assert gradgradcheck(function, inputs, check_fwd_over_rev=True, check_rev_over_rev=False,
                         check_undefined_grad=False)


def test_dual_tensors_and_levels():
    x, t = tapegrad.tensor([1.0, 2.0]), tapegrad.tensor([1.0, 0.0])
    assert fwAD.unpack_dual(x) == (x, None)
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(x, t)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        assert dual._base is x and fwAD.unpack_dual(dual).tangent is t
        y = dual.sin() * 2
        primal, tangent = fwAD.unpack_dual(y)
        np.testing.assert_allclose(tangent.numpy(), 2 * np.cos([1.0, 2.0]) * [1, 0])
        assert fwAD.unpack_dual(primal).tangent is None
        assert repr(dual) == "tensor([1., 2.], tangent=tensor([1., 0.]))"
        assert fwAD.unpack_dual(dual.detach()).tangent is None
        assert fwAD.unpack_dual(y > 0).tangent is None  # not differentiable
        with pytest.raises(RuntimeError, match="Nested forward mode AD"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size"):
            fwAD.make_dual(x, tapegrad.ones(3))
        with pytest.raises(ValueError, match="floating point or complex, but got: torch.int64"):
            fwAD.make_dual(tapegrad.tensor([1, 2]), t)
        with pytest.raises(RuntimeError, match="already has a forward gradient"):
            fwAD.make_dual(dual, t)
    assert fwAD.unpack_dual(y).tangent is None  # dropped with the level
    assert registry._interceptor is None and not registry.inplace_observers


def test_writes_into_views_update_the_bases_tangent():
    with fwAD.dual_level():
        dual = fwAD.make_dual(tapegrad.tensor([1.0, 2.0, 3.0]), tapegrad.ones(3))
        dual[0] = 5.0
        dual[1:].mul_(2)
        assert fwAD.unpack_dual(dual).tangent.tolist() == [0.0, 2.0, 2.0]
        view = dual.view(3, 1)
        assert fwAD.unpack_dual(view).tangent._base is not None


def test_a_module_with_dual_parameters():
    model = nn.Linear(3, 2)
    x = tapegrad.ones(4, 3)
    tangents = {name: tapegrad.ones_like(p) for name, p in model.named_parameters()}
    with fwAD.dual_level():
        duals = {name: fwAD.make_dual(p, tangents[name]) for name, p in model.named_parameters()}
        out = tapegrad.func.functional_call(model, duals, (x,))
        jvp = fwAD.unpack_dual(out).tangent
    assert jvp.tolist() == [[4.0, 4.0]] * 4  # x @ 1 + 1 over three inputs


def test_custom_function_jvp():
    class Exp(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_forward(result)
            return result

        @staticmethod
        def jvp(ctx, tangent):
            (result,) = ctx.saved_tensors
            return tangent * result

    class NoJvp(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = tapegrad.tensor([0.0, 1.0], dtype=tapegrad.float64)
    with fwAD.dual_level():
        out = Exp.apply(fwAD.make_dual(x, tapegrad.ones_like(x)))
        np.testing.assert_allclose(fwAD.unpack_dual(out).tangent.numpy(), np.exp([0.0, 1.0]))
        with pytest.raises(NotImplementedError, match="must implement the jvp function"):
            NoJvp.apply(fwAD.make_dual(x, tapegrad.ones_like(x)))


def test_reverse_over_forward_differentiates_the_tangent():
    w = tapegrad.tensor([2.0, 3.0], dtype=tapegrad.float64, requires_grad=True)
    x = tapegrad.tensor([1.0, 4.0], dtype=tapegrad.float64)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual((fwAD.make_dual(x, tapegrad.ones_like(x)) * w).sin()).tangent
        tangent.sum().backward()  # d/dw sum(cos(x w) w)
    xw = x.numpy() * w.detach().numpy()
    np.testing.assert_allclose(w.grad.numpy(), np.cos(xw) - np.sin(xw) * x.numpy() * [2, 3])


def test_a_compiled_function_runs_eagerly_inside_a_level():
    f = tapegrad.compile(lambda a: (a * a).sum())
    x = tapegrad.tensor([1.0, 2.0])
    f(x)
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, tapegrad.tensor([1.0, 1.0])))
        assert fwAD.unpack_dual(out).tangent.item() == 6.0


def test_same_tangents_as_pytorch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, tapegrad):
        x = lib.linspace(-1, 1, 10).view(2, 5)
        t = lib.linspace(0, 1, 10).view(2, 5)
        w = lib.arange(15.0).view(5, 3) / 15
        with lib.autograd.forward_ad.dual_level():
            dual = lib.autograd.forward_ad.make_dual(x, t)
            out = lib.nn.functional.softplus(dual @ w).log_softmax(1) ** 2 + dual.sum()
            results.append(lib.autograd.forward_ad.unpack_dual(out).tangent.numpy())
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=1e-6)
