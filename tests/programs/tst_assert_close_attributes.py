# Test-suite checks of tensor attributes through torch.testing.assert_close: shape, dtype
# (check_dtype), stride (check_stride), device, and type mismatches (TypeError / ValueError).
import torch
from torch.testing import assert_close


def run(name, fn):
    try:
        fn()
        print(f"{name}: passed")
    except (AssertionError, TypeError, ValueError, RuntimeError) as e:
        print(f"{name}: {type(e).__name__}: {e}")


x = torch.arange(6, dtype=torch.float32).reshape(2, 3)

run("shape", lambda: assert_close(x, x.reshape(3, 2)))
run("shape 1d vs 2d", lambda: assert_close(x.flatten(), x))
run("dtype", lambda: assert_close(x, x.double()))
run("dtype int", lambda: assert_close(x.long(), x.int()))
run("dtype off", lambda: assert_close(x, x.double(), check_dtype=False))
run("dtype off int/float", lambda: assert_close(x.long(), x, check_dtype=False))
run("dtype off f16", lambda: assert_close(x.half(), x + 1e-3, check_dtype=False))
run("dtype off f16 fail", lambda: assert_close(x.half(), x + 0.1, check_dtype=False))

t = x.t()
c = t.contiguous()
run("stride default", lambda: assert_close(t, c))
run("stride check", lambda: assert_close(t, c, check_stride=True))
run("stride same", lambda: assert_close(c, c.clone(), check_stride=True))
print("strides:", t.stride(), c.stride())

run("device", lambda: assert_close(x, x.to("cpu"), check_device=True))
run("requires_grad", lambda: assert_close(x.requires_grad_(True), x.detach()))
x.requires_grad_(False)

run("only rtol", lambda: assert_close(x, x, rtol=1e-3))
run("only atol", lambda: assert_close(x, x, atol=1e-3))
run("tensor vs list", lambda: assert_close(x, x.tolist()))
run("list vs tensor", lambda: assert_close([1.0, 2.0], torch.tensor([1.0, 2.0])))
run("tensor vs float", lambda: assert_close(torch.tensor(2.0), 2.0))
run("float vs tensor", lambda: assert_close(2.0, torch.tensor(2.0)))
run("str", lambda: assert_close("a", "a"))
run("None", lambda: assert_close(None, None))
run("int vs float", lambda: assert_close(1, 1.0))
run("int vs float no dtype", lambda: assert_close(1, 1.0, check_dtype=False))
run("bool scalars", lambda: assert_close(True, False))
run("complex", lambda: assert_close(torch.tensor([1 + 1j, 2 + 0j]), torch.tensor([1 + 1j, 2 + 0.5j])))
run("empty", lambda: assert_close(torch.empty(0, 3), torch.empty(0, 3)))
run("empty shape", lambda: assert_close(torch.empty(0, 3), torch.empty(3, 0)))
