# OpInfo-like forward-AD coverage test: for each op, the tangent from torch.autograd.forward_ad
# must match the reverse-mode Jacobian-vector product (assert_close), printed per op.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.testing import assert_close

x = torch.linspace(-1.2, 1.3, 12, dtype=torch.float64).reshape(3, 4)
v = torch.cos(torch.arange(12, dtype=torch.float64)).reshape(3, 4)
w = torch.sin(torch.arange(20, dtype=torch.float64) * 0.5).reshape(4, 5)
img = torch.linspace(-1, 1, 2 * 3 * 5 * 5, dtype=torch.float64).reshape(2, 3, 5, 5)
kernel = torch.cos(torch.arange(4 * 3 * 3 * 3, dtype=torch.float64)).reshape(4, 3, 3, 3) * 0.3

OPS = {
    "exp": lambda t: t.exp(),
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "matmul": lambda t: t @ w,
    "softmax": lambda t: F.softmax(t, dim=1),
    "log_softmax": lambda t: F.log_softmax(t, dim=0),
    "layer_norm": lambda t: F.layer_norm(t, (4,)),
    "gelu": F.gelu,
    "silu": F.silu,
    "relu": F.relu,
    "abs": torch.abs,
    "pow": lambda t: t.pow(3),
    "div": lambda t: t / (t * t + 1),
    "sum_dim": lambda t: t.sum(dim=1),
    "mean": lambda t: t.mean(),
    "var": lambda t: t.var(dim=0),
    "norm": lambda t: t.norm(),
    "logsumexp": lambda t: t.logsumexp(dim=1),
    "max_dim": lambda t: t.max(dim=1).values,
    "cumsum": lambda t: t.cumsum(dim=1),
    "transpose_reshape": lambda t: t.t().reshape(2, 6),
    "cat": lambda t: torch.cat([t, t * 2], dim=0),
    "where": lambda t: torch.where(t > 0, t, t * 0.1),
    "clamp": lambda t: t.clamp(-0.5, 0.5),
    "index": lambda t: t[:, [0, 2]],
    "mse": lambda t: F.mse_loss(t, v),
    "cross_entropy": lambda t: F.cross_entropy(t, torch.tensor([0, 3, 1])),
    "atan2": lambda t: torch.atan2(t, v),
    "linalg_inv": lambda t: torch.linalg.inv(t[:, :3] + 3 * torch.eye(3, dtype=t.dtype)),
    "conv2d": None,
    "max_pool2d": None,
    "batch_norm": None,
}
IMG_OPS = {
    "conv2d": lambda t: F.conv2d(t, kernel, padding=1),
    "max_pool2d": lambda t: F.max_pool2d(t, 2),
    "batch_norm": lambda t: F.batch_norm(t, None, None, training=True),
}


def check(name, fn, primal, tangent):
    try:
        with fwAD.dual_level():
            out = fn(fwAD.make_dual(primal, tangent))
            jvp_fwd = fwAD.unpack_dual(out).tangent
        _, jvp_rev = torch.autograd.functional.jvp(fn, primal, tangent)
        assert_close(jvp_fwd, jvp_rev)
        print(f"{name:18s} ok  shape={tuple(jvp_fwd.shape)}")
    except Exception as e:
        print(f"{name:18s} {type(e).__name__}: {str(e).splitlines()[0]}")


for name, fn in OPS.items():
    if fn is None:
        fn = IMG_OPS[name]
        check(name, fn, img, torch.sin(img * 3))
    else:
        check(name, fn, x, v)
