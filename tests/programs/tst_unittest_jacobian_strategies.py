# unittest-style numerical checks of torch.autograd.functional: jacobian/hessian with each
# strategy (reverse, forward-mode, vectorize) against finite differences, with subTest per case.
import io
import unittest
import torch
from torch.autograd.functional import hessian, jacobian, jvp, vhp, hvp, vjp


def finite_diff_jacobian(f, x, eps=1e-6):
    cols = []
    flat = x.detach().clone().reshape(-1)
    for i in range(flat.numel()):
        d = torch.zeros_like(flat)
        d[i] = eps
        cols.append(((f((flat + d).reshape(x.shape)) - f((flat - d).reshape(x.shape))) / (2 * eps)).reshape(-1))
    return torch.stack(cols, dim=1).reshape(f(x).shape + x.shape)


def f_vec(x):
    return torch.stack([x[0] * x[1], torch.sin(x[2]), x.pow(2).sum(), torch.exp(-x[1])])


def f_mat(x):
    return torch.tanh(x @ x.t())


def f_scalar(x):
    return (x.sin() * x.cos().exp()).sum()


class TestJacobians(unittest.TestCase):
    x = torch.tensor([0.3, -1.2, 0.8], dtype=torch.float64)
    m = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3)

    def test_jacobian_strategies(self):
        for f, x in [(f_vec, self.x), (f_mat, self.m)]:
            ref = finite_diff_jacobian(f, x)
            for kwargs in [{}, {"vectorize": True}, {"strategy": "forward-mode", "vectorize": True},
                           {"create_graph": True}]:
                with self.subTest(f=f.__name__, **kwargs):
                    jac = jacobian(f, x, **kwargs)
                    self.assertEqual(jac.shape, ref.shape)
                    torch.testing.assert_close(jac, ref, rtol=1e-6, atol=1e-7)

    def test_forward_mode_requires_vectorize(self):
        with self.assertRaisesRegex(NotImplementedError, "forward-mode"):
            jacobian(f_vec, self.x, strategy="forward-mode")

    def test_bad_strategy(self):
        with self.assertRaises(ValueError) as cm:
            jacobian(f_vec, self.x, strategy="sideways")
        print("ValueError:", cm.exception)

    def test_hessian_strategies(self):
        ref = finite_diff_jacobian(lambda t: jacobian(f_scalar, t), self.x)
        for kwargs in [{}, {"vectorize": True}, {"outer_jacobian_strategy": "forward-mode", "vectorize": True}]:
            with self.subTest(**kwargs):
                h = hessian(f_scalar, self.x, **kwargs)
                torch.testing.assert_close(h, ref, rtol=1e-5, atol=1e-6)
                torch.testing.assert_close(h, h.t())

    def test_products(self):
        v = torch.tensor([1.0, 0.5, -0.25], dtype=torch.float64)
        J = jacobian(f_vec, self.x)
        H = hessian(f_scalar, self.x)
        torch.testing.assert_close(jvp(f_vec, self.x, v)[1], J @ v)
        torch.testing.assert_close(vjp(f_vec, self.x, torch.ones(4, dtype=torch.float64))[1], J.sum(0))
        torch.testing.assert_close(vhp(f_scalar, self.x, v)[1], v @ H)
        torch.testing.assert_close(hvp(f_scalar, self.x, v)[1], H @ v)

    def test_strict_mode(self):
        with self.assertRaises(RuntimeError) as cm:
            jacobian(lambda t: torch.ones(2, dtype=torch.float64), self.x, strict=True)
        print("strict:", cm.exception)
        zero = jacobian(lambda t: torch.ones(2, dtype=torch.float64), self.x)
        print("non-strict independent output:", zero)

    def test_intentional_failure(self):
        torch.testing.assert_close(jacobian(f_vec, self.x), finite_diff_jacobian(f_vec, self.x) * 1.001)


if __name__ == "__main__":
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream, verbosity=0).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(TestJacobians))
    print("ran:", result.testsRun, "failures:", len(result.failures), "errors:", len(result.errors))
    for test, tb in result.failures + result.errors:
        print("FAILED", test.id().split(".")[-1], "->", tb.strip().splitlines()[-1])
