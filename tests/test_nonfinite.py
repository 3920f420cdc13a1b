"""inf and nan flow through tapegrad as through PyTorch: into nan and inf results, silently.

numpy warns ("invalid value encountered in reduce") where PyTorch says nothing; a diverging
training loop would print those warnings at every step. The check runs in a fresh interpreter
with RuntimeWarnings turned into errors, the way a user's ``python -W error`` sees them, since a
test framework's own warning capture would stand in front of tapegrad's filter.
"""
import subprocess
import sys
import textwrap

_PROGRAM = textwrap.dedent("""
    import math
    import tapegrad as torch
    F = torch.nn.functional

    def make():
        return torch.tensor([[math.inf, -math.inf, math.nan], [0., 1., -1.]], requires_grad=True)

    CASES = {
        "sum": lambda x: x.sum(), "mean": lambda x: x.mean(1), "var": lambda x: x.var(),
        "std": lambda x: x.std(0), "nansum": lambda x: x.nansum(), "nanmean": lambda x: x.nanmean(),
        "prod": lambda x: x.prod(), "cumsum": lambda x: x.cumsum(1), "cumprod": lambda x: x.cumprod(1),
        "logsumexp": lambda x: x.logsumexp(1), "softmax": lambda x: x.softmax(1),
        "log_softmax": lambda x: x.log_softmax(0), "norm": lambda x: x.norm(),
        "layer_norm": lambda x: F.layer_norm(x, (3,)),
        "group_norm": lambda x: F.group_norm(x.reshape(1, 6, 1), 2),
        "instance_norm": lambda x: F.instance_norm(x.reshape(1, 2, 3)),
        "cross_entropy": lambda x: F.cross_entropy(x, torch.tensor([0, 1])),
        "broadcast": lambda x: x * x[:1], "log": lambda x: x.log(), "div": lambda x: x / 0,
        "pow": lambda x: x ** -1.5, "cross": lambda x: torch.linalg.cross(x, x.flip(0)),
        "normalize": lambda x: F.normalize(x, dim=1), "kron": lambda x: torch.kron(x, x),
    }
    for name, case in CASES.items():
        x = make()
        out = case(x)
        out.sum().backward()
    print(torch.tensor([math.inf, -math.inf]).sum().item())
""")


def test_non_finite_values_give_nan_without_numpy_warnings():
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", _PROGRAM],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "nan"
