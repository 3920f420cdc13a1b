"""The Python side of a compiled call, generated once per specialization.

Everything a call does around its kernel (fetch the source tensors, hand their arrays to the
kernel, count the in-place writes, assign ``.grad``, wrap the results) is known when the
specialization is built, so it is written out as straight-line code: a generic loop over the
same lists cost more than a small training step's kernel (the line fit's step: 0.7 µs of
kernel in 2.9 µs of bookkeeping).
"""
import numpy as np

from ..autograd import grad_mode
from ..tensor import Tensor
from . import pytree
from .trace import ArgSource, GradSource, RandomSource

__all__ = ["fetcher", "runner"]


class _Namespace:
    """The objects generated code refers to, each bound to a short name once."""

    def __init__(self, **fixed):
        self.bindings = dict(fixed)
        self._names = {}

    def bind(self, obj, stem="K"):
        key = id(obj)
        if key not in self._names:
            self._names[key] = f"{stem}{len(self._names)}"
            self.bindings[self._names[key]] = obj
        return self._names[key]

    def define(self, source, name):
        exec(compile(source, f"<tapegrad {name}>", "exec"), self.bindings)
        return self.bindings[name]


def _source_expression(source, namespace):
    """Source text that evaluates to ``source``'s tensor for the call's flat arguments ``flat``."""
    if type(source) is ArgSource:
        return f"flat[{source.index}]"
    if type(source) is GradSource:
        return f"{_source_expression(source.owner, namespace)}._grad"
    if type(source) is RandomSource:  # (draws: evaluated exactly once per call, in order)
        return f"{namespace.bind(source.fetch)}(flat)"
    return namespace.bind(source.tensor)


def fetcher(sources):
    """``fetch(flat_args) -> [tensor per source]`` as one generated function."""
    namespace = _Namespace()
    items = ", ".join(_source_expression(s, namespace) for s in sources)
    return namespace.define(f"def fetch(flat):\n    return [{items}]\n", "fetch")


def runner(specialization):
    """``run(args, kwargs, times=1)``: one call of ``specialization`` (``times`` calls in one
    kernel launch when the caller has checked that they may be, see ``Specialization.run``)."""
    spec, p = specialization, specialization.program
    ns = _Namespace(_flatten=pytree.flatten, _unflatten=pytree.unflatten, _make=Tensor._make,
                    _contiguous=_contiguous, G=grad_mode._state, P=p, S=spec)
    lines = ["def run(args, kwargs, times=1):",
             "    flat = args" if spec.flat_is_args else "    flat = _flatten((args, kwargs))[0]"]
    tensors = [f"t{i}" for i in range(len(spec.sources))]
    for name, source in zip(tensors, spec.sources):
        lines.append(f"    {name} = {_source_expression(source, ns)}")
    arrays = []
    for i, name in enumerate(tensors):
        lines.append(f"    a{i} = {name}._array")
        if i in spec.layout_checks:
            lines += [f"    if not a{i}.flags.c_contiguous:",
                      f"        a{i} = _contiguous(a{i})"]
        arrays.append(f"a{i}")
    arguments = ", ".join(arrays + [ns.bind(c, "C") for c in spec.constants])
    lines += ["    if times == 1:",
              f"        results = P.forward({arguments})",
              "    else:",
              f"        results = P.forward_repeated(times, {arguments})"]
    for index in p.mutations:  # the kernel wrote into their arrays
        lines.append(f"    t{index}._version_counter.value += times")
    for owner, k in p.grad_sets:
        value = "None" if k is None else f"_make(results[{k}])"
        lines.append(f"    {_source_expression(owner, ns)}._grad = {value}")
    outputs = []
    for j, (kind, payload) in enumerate(p.user_outputs):
        if kind == "source":
            outputs.append(f"t{payload}")
            continue
        made = f"_make(results[{payload}])" if kind == "result" else \
            f"_make({ns.bind(payload, 'A')}.copy())"
        lines.append(f"    o{j} = {made}")
        outputs.append(f"o{j}")
    made = [o for o in outputs if o.startswith("o")]
    if made:  # made under inference_mode, as eager marks them
        lines.append("    if G.inference:")
        lines += [f"        {o}._inference = True" for o in made]
    if spec.needs_node:
        lines.append(f"    S.attach_backward([{', '.join(outputs)}], [{', '.join(tensors)}], "
                     "results)")
    lines.append("    return " + _returned(spec, outputs, ns))
    return ns.define("\n".join(lines) + "\n", "run")


def _returned(spec, outputs, namespace):
    """The expression rebuilding what the function returned from its output tensors."""
    if spec.returns_one_tensor:
        return outputs[0]
    it = iter(outputs)
    leaves = [next(it) if spec.is_tensor_leaf(leaf) else namespace.bind(leaf, "V")
              for leaf in spec.output_leaves]
    return f"_unflatten({namespace.bind(spec.output_spec, 'T')}, [{', '.join(leaves)}])"


def _contiguous(array):
    """``array`` C-contiguous (``np.asarray``: ``ascontiguousarray`` makes a 0-d array 1-d)."""
    return np.asarray(array, order="C")
