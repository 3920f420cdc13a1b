"""``torch.library``: user-defined operators. The custom-op API (PyTorch 2.4+) wraps a Python
kernel as an operator with a fake (shape-only) implementation and an autograd formula:

```python
@torch.library.custom_op("mylib::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    return torch.from_numpy(np.sin(x.numpy()))

numpy_sin.register_autograd(backward, setup_context=setup_context)
numpy_sin(x)                      # or torch.ops.mylib.numpy_sin(x)
torch.library.opcheck(numpy_sin, (x,))
```
Its kernel runs below autograd (under ``no_grad``, on detached aliases of the tensors); when an
input requires grad, the outputs get a ``GeneratedBackwardFor_<ns>_<name>_default`` node that runs
the registered ``backward`` — or, with none registered, raises when a backward reaches it, as
PyTorch's does. Arguments named in ``mutates_args`` have their version bumped after each call.

The older style — ``Library("ns", "DEF").define(schema)`` or ``torch.library.define``, kernels
from ``Library.impl`` / ``torch.library.impl`` per dispatch key — makes operators too.
"""
import ast
import inspect
import sys

import numpy as np

from .autograd import grad_mode
from .autograd.function import Function
from .tensor import Tensor

__all__ = ["CustomOpDef", "Library", "custom_op", "define", "impl", "opcheck",
           "register_autograd", "register_fake", "register_kernel"]

_OPS = {}  # "ns::name" -> CustomOpDef


class CustomOpDef:
    """The operator ``custom_op`` makes: callable, with ``register_*`` methods."""

    def __init__(self, namespace, name, fn, mutates_args):
        self._namespace, self._name, self._init_fn = namespace, name, fn
        self._signature = inspect.signature(fn)
        self._mutates_args = _mutated_names(mutates_args, self._signature, fn)
        self._kernels = {}
        self._fake_fn = None
        self._backward_fn = self._setup_context_fn = None
        self._autograd_function = _generated_function(self)

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    @property
    def _qualname(self):
        return f"{self._namespace}::{self._name}"

    def register_kernel(self, device_types, fn=None):
        """A kernel for some devices (all devices here run on the CPU, so it replaces the default
        one for ``"cpu"`` or ``None``)."""
        def register(kernel):
            types = (device_types,) if isinstance(device_types, str) or device_types is None \
                else device_types
            for device in types:
                self._kernels[device or "cpu"] = kernel
            return kernel
        return register if fn is None else register(fn)

    def register_fake(self, fn=None):
        """The shape-only implementation (used by tracing); kept, not needed to run eagerly."""
        def register(fake):
            self._fake_fn = fake
            return fake
        return register if fn is None else register(fn)

    def register_autograd(self, backward, *, setup_context=None):
        """``backward(ctx, *grads)`` returns one gradient per argument; ``setup_context(ctx,
        inputs, output)`` saves what it needs."""
        self._backward_fn, self._setup_context_fn = backward, setup_context

    def __call__(self, *args, **kwargs):
        values = self._argument_values(args, kwargs)
        if grad_mode.is_grad_enabled() and any(
                isinstance(a, Tensor) and a.requires_grad for a in values):
            return self._autograd_function.apply(*values)
        return self._run_kernel(values)

    def _argument_values(self, args, kwargs):
        """Every argument's value, in declaration order (keyword-only ones included)."""
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def _call_kernel(self, values):
        """The kernel called with ``values``, keyword-only arguments by keyword."""
        positional, keywords = [], {}
        for param, value in zip(self._signature.parameters.values(), values):
            if param.kind is inspect.Parameter.KEYWORD_ONLY:
                keywords[param.name] = value
            else:
                positional.append(value)
        return self._kernel()(*positional, **keywords)

    def _kernel(self):
        return self._kernels.get("cpu", self._init_fn)

    def _run_kernel(self, args):
        below_autograd = [a.detach() if isinstance(a, Tensor) else a for a in args]
        with grad_mode.no_grad():
            result = self._call_kernel(below_autograd)
        self._check_no_aliasing(args, result)
        for name in self._mutates_args:
            tensor = args[list(self._signature.parameters).index(name)]
            if isinstance(tensor, Tensor):
                tensor._version_counter.value += 1
        return result

    def _check_no_aliasing(self, args, result):
        """An output may be neither an input nor share memory with one or with another output
        (autograd would give it the wrong history)."""
        outputs = [r for r in (result if isinstance(result, (tuple, list)) else (result,))
                   if isinstance(r, Tensor)]
        inputs = [a for a in args if isinstance(a, Tensor)]
        for i, out in enumerate(outputs):
            others = inputs + outputs[:i]
            if any(np.may_share_memory(out._array, t._array) for t in others):
                raise RuntimeError(
                    f"{self._name} (with implementation in {sys.modules[__name__]}): The output "
                    "of this custom operator (1) must not also be an input to this custom "
                    "operator and (2) may not alias any inputs to this custom operator or other "
                    "returns. The most common way to trigger this error is if we have y = "
                    "custom_op(x) and y and x are the same Tensor. Please instead return a clone "
                    "of the offending output tensor(s) (e.g. return x.clone()) or refactor the "
                    "custom operator to not return y.")


class _SchemaOp(CustomOpDef):
    """An operator declared by a schema string (``Library.define`` / ``torch.library.define``)
    whose kernels come from ``impl``. As in PyTorch, a kernel without a registered autograd
    formula runs with autograd on (its own operations are recorded), and an ``"Autograd"``
    kernel takes over the whole call."""

    def __init__(self, namespace, name, signature, mutated):
        self._namespace, self._name, self._init_fn = namespace, name, None
        self._signature, self._mutates_args = signature, mutated
        self._kernels = {}
        self._fake_fn = self._autograd_kernel = None
        self._backward_fn = self._setup_context_fn = None
        self._autograd_function = _generated_function(self)

    def __repr__(self):
        return f"{self._namespace}.{self._name}"

    def __call__(self, *args, **kwargs):
        if self._autograd_kernel is not None:
            return self._autograd_kernel(*args, **kwargs)
        if self._backward_fn is not None:
            return super().__call__(*args, **kwargs)
        return self._call_kernel(self._argument_values(args, kwargs))

    def _kernel(self):
        kernel = self._kernels.get("cpu")
        if kernel is None:
            raise NotImplementedError(
                f"Could not run '{self._namespace}::{self._name}' with arguments from the 'CPU' "
                "backend. 'CPU' has no kernel registered for this operator: register one with "
                "torch.library.impl or Library.impl.")
        return kernel

    def register_dispatch_kernel(self, dispatch_key, fn):
        """``impl``'s registration under one of PyTorch's dispatch keys."""
        key = dispatch_key.lower()
        if key == "meta":
            self._fake_fn = fn
        elif key.startswith("autograd"):
            self._autograd_kernel = fn
        elif key in ("", "cpu", "compositeexplicitautograd", "compositeimplicitautograd",
                     "default"):
            self._kernels["cpu"] = fn
        else:  # CUDA, ...: kept, never used on this CPU-only library
            self._kernels[key] = fn


def _split_top_level(text):
    """``text`` split at the commas outside brackets (defaults may be lists)."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _schema_default(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _parse_schema(schema):
    """``"name(Tensor(a!) x, float alpha=1.0, *, int k=0) -> Tensor"``: the name, a signature
    of the arguments, and the names of those marked as written (``!``)."""
    name, _, rest = schema.partition("(")
    arguments = rest[:rest.rindex(")", 0, rest.index("->") if "->" in rest else len(rest))]
    params, mutated, kind = [], [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    for argument in _split_top_level(arguments):
        if argument == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        declaration, _, default = argument.partition("=")
        arg_type, arg_name = declaration.strip().rsplit(None, 1)
        if "!" in arg_type:
            mutated.append(arg_name)
        params.append(inspect.Parameter(arg_name, kind, default=_schema_default(default.strip())
                                        if default else inspect.Parameter.empty))
    return name.strip().split(".")[0], inspect.Signature(params), tuple(mutated)


def _define(namespace, schema):
    name, signature, mutated = _parse_schema(schema)
    op = _SchemaOp(namespace, name, signature, mutated)
    _OPS[op._qualname] = op
    _expose_in_torch_ops(op)
    return op


class Library:
    """A namespace to declare operators in (``kind="DEF"`` or ``"FRAGMENT"``) and to give
    kernels to (``"IMPL"``, for operators declared with this library)."""

    def __init__(self, ns, kind, dispatch_key=""):
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key

    def __repr__(self):
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema, alias_analysis="", *, tags=()):
        """Declare the operator ``schema`` describes; returns its name."""
        return _define(self.ns, schema)._name

    def impl(self, op_name, fn, dispatch_key="", *, with_keyset=False, allow_override=False):
        """Register ``fn`` as the kernel of ``op_name`` for ``dispatch_key``."""
        qualname = op_name if isinstance(op_name, str) and "::" in op_name else None
        if qualname is None:
            qualname = getattr(getattr(op_name, "_op", None), "_qualname",
                               f"{self.ns}::{op_name}")
        _schema_op(qualname).register_dispatch_kernel(dispatch_key or self.dispatch_key, fn)

    def _destroy(self):
        pass


def _schema_op(qualname):
    op = _OPS.get(qualname)
    if not isinstance(op, _SchemaOp):
        raise NotImplementedError(f"tapegrad: {qualname} is not an operator declared with "
                                  "torch.library.define; only those can be given kernels "
                                  "(PyTorch's own operators cannot be overridden)")
    return op


def define(qualname, schema, *, lib=None, tags=()):
    """``torch.library.define("ns::name", "(Tensor x) -> Tensor")``."""
    namespace, _, name = qualname.partition("::")
    _define(namespace, name + schema)


def impl(qualname, types, func=None, *, lib=None):
    """``torch.library.impl("ns::name", "cpu")``: register the decorated function as a kernel."""
    def register(kernel):
        for key in (types,) if isinstance(types, str) else types:
            _schema_op(qualname).register_dispatch_kernel(key, kernel)
        return kernel
    return register if func is None else register(func)


def _mutated_names(mutates_args, signature, fn):
    """The argument names the op writes into ("unknown" means: maybe all of its tensors)."""
    if mutates_args == "unknown":
        return tuple(signature.parameters)
    if isinstance(mutates_args, str):
        raise ValueError("mutates_args must be a tuple of argument names or 'unknown'")
    for name in mutates_args:
        if name not in signature.parameters:
            raise ValueError(f"{fn.__name__}: mutates_args contains {name!r} that is not an "
                             "argument of the function")
    return tuple(mutates_args)


def _generated_function(op):
    """The autograd.Function that carries ``op`` through autograd (PyTorch's generated name)."""
    def forward(*args):
        return op._run_kernel(args)

    params = list(op._signature.parameters.values())
    keyword_only = [p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY]
    n_positional = len(params) - len(keyword_only)

    def setup_context(ctx, inputs, output):
        """The user's ``setup_context``; keyword-only arguments go to it apart, as a dict."""
        if op._setup_context_fn is None:
            return
        if keyword_only:
            op._setup_context_fn(ctx, inputs[:n_positional], output=output,
                                 keyword_only_inputs=dict(zip(keyword_only,
                                                              inputs[n_positional:])))
        else:
            op._setup_context_fn(ctx, inputs, output)

    def backward(ctx, *grads):
        """The user's ``backward``: gradients of the positional arguments only."""
        if op._backward_fn is None:
            raise RuntimeError(f"Trying to backward through {op._namespace}.{op._name}.default "
                               "but no autograd formula was registered. Please use "
                               "register_autograd to add one.")
        result = op._backward_fn(ctx, *grads)
        if not keyword_only:
            return result
        return (*(result if isinstance(result, tuple) else (result,)), *[None] * len(keyword_only))

    name = f"GeneratedBackwardFor_{op._namespace}_{op._name}_default"
    return type(name, (Function,), {"forward": staticmethod(forward),
                                    "setup_context": staticmethod(setup_context),
                                    "backward": staticmethod(backward)})


def _check_annotations(fn):
    """PyTorch infers the op's schema from the annotations: every parameter needs one."""
    for param in inspect.signature(fn).parameters.values():
        if param.annotation is inspect.Parameter.empty:
            raise ValueError(f"infer_schema(func): Parameter {param.name} must have a type "
                             f"annotation. Got func with signature {inspect.signature(fn)})")


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None):
    """Make ``fn`` the operator ``"namespace::name"``; as a decorator when ``fn`` is omitted."""
    namespace, _, op_name = name.partition("::")
    if not op_name:
        raise ValueError(f"Expected there to be a namespace in {name}, i.e. The operator name "
                         "should look something like ns::foo")

    def define(kernel):
        if schema is None:
            _check_annotations(kernel)
        op = CustomOpDef(namespace, op_name, kernel, mutates_args)
        if device_types is not None:
            op.register_kernel(device_types, kernel)
        _OPS[op._qualname] = op
        _expose_in_torch_ops(op)
        return op
    return define if fn is None else define(fn)


def _lookup(op):
    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, OpOverload):  # torch.ops.<ns>.<name>[.default]
        return op._op
    qualname = op if isinstance(op, str) else getattr(op, "_qualname", None)
    if qualname not in _OPS:
        raise ValueError(f"register: expected an operator defined with torch.library.custom_op, "
                         f"got {op!r}")
    return _OPS[qualname]


def register_fake(op, fn=None, /, *, lib=None, _stacklevel=1):
    """``torch.library.register_fake("ns::name")``: the op's shape-only implementation."""
    return _lookup(op).register_fake(fn)


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    """``torch.library.register_autograd("ns::name", backward, setup_context=...)``."""
    _lookup(op).register_autograd(backward, setup_context=setup_context)


def register_kernel(op, device_types, fn=None, /, *, lib=None):
    """``torch.library.register_kernel("ns::name", "cpu", fn)``."""
    return _lookup(op).register_kernel(device_types, fn)


class OpOverload:
    """``torch.ops.<ns>.<name>.default``: the operator itself."""

    def __init__(self, op):
        self._op = op

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __repr__(self):
        return f"{self._op._namespace}.{self._op._name}.default"


class OpOverloadPacket(OpOverload):
    """``torch.ops.<ns>.<name>``: callable; ``.default`` is its single overload."""

    @property
    def default(self):
        return OpOverload(self._op)

    def __repr__(self):
        return f"{self._op._namespace}.{self._op._name}"


class _OpNamespace:
    """``torch.ops.<ns>``: the custom ops defined in namespace ``ns``."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"'torch.ops.{self._name}'"


def _expose_in_torch_ops(op):
    """Make ``op`` reachable as ``torch.ops.<ns>.<name>`` (``torch.ops`` is tapegrad's ops
    package, which gets one attribute per namespace)."""
    ops_module = sys.modules["tapegrad.ops"]
    namespace = ops_module.__dict__.setdefault(op._namespace, _OpNamespace(op._namespace))
    if isinstance(namespace, _OpNamespace):  # never shadow one of tapegrad's own modules
        setattr(namespace, op._name, OpOverloadPacket(op))


# -- opcheck ---------------------------------------------------------------------------------------

class OpCheckError(Exception):
    """One of ``opcheck``'s tests failed."""


def _fresh(args):
    """Copies of the tensor arguments (each test runs on its own), keeping requires_grad."""
    return tuple(a.detach().clone().requires_grad_(a.requires_grad) if isinstance(a, Tensor)
                 else a for a in args)


def _as_list(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _test_schema(op, args, kwargs):
    """Only the arguments named in ``mutates_args`` may change; outputs may not alias inputs."""
    bound = op._signature.bind(*args, **kwargs)
    before = {name: (value._version_counter.value, value.detach().clone())
              for name, value in bound.arguments.items() if isinstance(value, Tensor)}
    op(*args, **kwargs)
    for name, (version, value) in before.items():
        tensor = bound.arguments[name]
        changed = tensor._version_counter.value != version or not np.array_equal(
            tensor._array, value._array, equal_nan=True)
        if changed and name not in op._mutates_args:
            raise RuntimeError(f"Argument {name} is not defined as mutable but was mutated")


def _test_autograd_registration(op, args, kwargs):
    """A ``custom_op`` always has an autograd kernel (the generated one): nothing to check."""


def _test_faketensor(op, args, kwargs):
    """The fake implementation exists and predicts the real outputs' shapes and dtypes."""
    if op._fake_fn is None:
        raise RuntimeError(f"There was no fake impl registered for {op!r}. This is necessary for "
                           "torch.compile/export/fx tracing to work. Please use "
                           f"`{getattr(op._init_fn, '__name__', op._name)}.register_fake` to add "
                           "an fake impl.")
    with grad_mode.no_grad():
        real = _as_list(op(*args, **kwargs))
        fake = _as_list(op._fake_fn(*_fresh(args), **kwargs))
    for r, f in zip(real, fake):
        if not isinstance(r, Tensor):
            continue
        if r.shape != f.shape:
            difference = f"Shapes {r.shape} and {f.shape} are not equal!"
        elif r.dtype != f.dtype:
            difference = f"Dtypes {r.dtype} and {f.dtype} are not equal!"
        else:
            continue
        raise RuntimeError(f"When comparing the output of {op._namespace}.{op._name}.default on "
                           "FakeTensor and concrete Tensors, found mismatched tensor metadata: "
                           + difference)


def _test_aot_dispatch_dynamic(op, args, kwargs):
    """Forward and backward run: the gradients of the outputs' sum reach the inputs."""
    inputs = [a for a in args if isinstance(a, Tensor) and a.requires_grad]
    outputs = [o for o in _as_list(op(*args, **kwargs))
               if isinstance(o, Tensor) and o.requires_grad]
    if inputs and outputs:
        from .autograd import grad
        grad(sum(o.sum() for o in outputs), inputs, allow_unused=True)


_OPCHECK_TESTS = {"test_schema": _test_schema,
                  "test_autograd_registration": _test_autograd_registration,
                  "test_faketensor": _test_faketensor,
                  "test_aot_dispatch_dynamic": _test_aot_dispatch_dynamic}


def opcheck(op, args, kwargs=None, *, test_utils=tuple(_OPCHECK_TESTS), raise_exception=True,
            atol=None, rtol=None):
    """Check a custom op's registrations as PyTorch's ``opcheck`` does (each test on fresh
    copies of ``args``): ``{test name: "SUCCESS" or the exception}``."""
    op = _lookup(op)
    kwargs = kwargs or {}
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    results = {}
    for name in test_utils:
        try:
            _OPCHECK_TESTS[name](op, _fresh(args), kwargs)
        except Exception as error:  # noqa: BLE001  a failing test is the result being reported
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {name} failed with {error} (scroll up for "
                                   "stack trace)") from error
            results[name] = error
        else:
            results[name] = "SUCCESS"
    return results
