"""Tensor subclasses and ``__torch_function__`` (tapegrad.overrides). Each case runs in a fresh
interpreter: defining the first user subclass switches dispatch on for the whole process."""
import subprocess
import sys
import textwrap

import pytest


def run(code):
    completed = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def test_nothing_is_wrapped_until_a_subclass_is_defined():
    run("""
        import tapegrad
        original = tapegrad.add
        assert not hasattr(original, "__wrapped_original__")
        class Mine(tapegrad.Tensor):
            pass
        assert tapegrad.add.__wrapped_original__ is original
    """)


def test_subclasses_keep_their_type_share_memory_and_history():
    run("""
        import numpy as np
        import tapegrad
        class Mine(tapegrad.Tensor):
            pass
        x = tapegrad.arange(3.0, requires_grad=True)
        m = x.as_subclass(Mine)
        assert type(m) is Mine and m.data_ptr() == x.data_ptr()
        assert type(m.grad_fn).__name__ == "AliasBackward0"
        y = (m * 2).exp()
        assert type(y) is Mine and type(tapegrad.add(m, 1)) is Mine and type(m[0]) is Mine
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(2 * np.arange(3.0)), rtol=1e-6)
        p = tapegrad.nn.Parameter(tapegrad.ones(2))
        assert type(p * 2) is tapegrad.Tensor  # parameters take no part
        assert repr(Mine([1.0, 2.0])) == "Mine([1., 2.])"
    """)


def test_torch_function_sees_public_calls_and_can_replace_them():
    out = run("""
        import tapegrad
        seen = []
        class Logged(tapegrad.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                seen.append(func.__name__)
                if func is tapegrad.sub:
                    return "replaced"
                return super().__torch_function__(func, types, args, kwargs or {})
        t = tapegrad.ones(2).as_subclass(Logged)
        total = tapegrad.mul(t, 3).sum()
        value = total.item()  # a method: dispatched too
        replaced = tapegrad.sub(t, 1)
        print(type(total).__name__, value, seen, replaced)
    """)
    assert out.split() == ["Logged", "6.0", "['mul',", "'sum',", "'item',", "'sub']",
                           "replaced"]


def test_a_type_refusing_everything_is_pytorchs_type_error():
    out = run("""
        import tapegrad
        class Refusing(tapegrad.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return NotImplemented
        try:
            tapegrad.exp(tapegrad.ones(1).as_subclass(Refusing))
        except TypeError as error:
            print(error)
    """)
    assert ("no implementation found for 'torch.exp' on types that implement "
            "__torch_function__") in out



def test_a_subclass_new_takes_its_own_arguments():
    # Python passes the constructor's arguments to __init__ too: Tensor's must accept them
    run("""
        import tapegrad as tg
        class Tagged(tg.Tensor):
            @staticmethod
            def __new__(cls, data, tag=None):
                made = tg.as_tensor(data).as_subclass(cls)
                made.tag = tag
                return made
        t = Tagged([1.0, 2.0], tag="m")
        assert type(t) is Tagged and t.tag == "m" and t.tolist() == [1.0, 2.0]
    """)


def test_make_subclass_aliases_the_data_as_a_leaf():
    run("""
        import tapegrad as tg
        class Wrapped(tg.Tensor):
            @staticmethod
            def __new__(cls, data):
                return tg.Tensor._make_subclass(cls, data, True)
        base = tg.ones(3) * 2
        w = Wrapped(base)
        assert type(w) is Wrapped and w.is_leaf and w.requires_grad
        base.add_(1)  # same memory, same version counter
        assert w.tolist() == [3.0, 3.0, 3.0] and w._version == base._version
        try:
            tg.Tensor._make_subclass(Wrapped, tg.ones(2, dtype=tg.int64), True)
        except RuntimeError as e:
            assert "floating point and complex" in str(e)
        else:
            raise AssertionError("an integer tensor cannot require grad")
    """)


def test_legacy_constructor_still_builds_tensors():
    run("""
        import tapegrad as tg
        assert tg.Tensor(2, 3).shape == (2, 3)
        assert tg.Tensor([1, 2]).dtype == tg.float32
        assert tg.Tensor().shape == (0,)
        assert tg.Tensor([1.0], requires_grad=True).requires_grad
    """)


def test_str_of_a_subclass_follows_its_repr():
    """``str`` is ``object.__str__``, which calls the class's own ``__repr__``."""
    assert run("""
        import tapegrad
        class Tagged(tapegrad.Tensor):
            def __repr__(self):
                return "tagged"
        print(str(tapegrad.ones(2).as_subclass(Tagged)), str(tapegrad.ones(2)))
    """) == "tagged tensor([1., 1.])\n"
