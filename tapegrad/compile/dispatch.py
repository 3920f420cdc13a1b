"""The Python side of a compiled call, generated once per specialization.

Everything a call does around its kernel (fetch the source tensors, hand their arrays to the
kernel, count the in-place writes, assign ``.grad``, wrap the results) is known when the
specialization is built, so it is written out as straight-line code: a generic loop over the
same lists cost more than a small training step's kernel (the line fit's step: 0.7 µs of
kernel in 2.9 µs of bookkeeping).
"""
import itertools

import numpy as np

from ..autograd import grad_mode
from ..autograd.graph import AccumulateGrad
from ..ops import PRIMITIVES
from ..tensor import Tensor
from . import pytree
from .node import CompiledFunctionBackward
from .trace import ArgSource, GradSource, RandomSource

__all__ = ["MISS", "attempt", "fetcher", "runner"]

MISS = object()  # what ``attempt`` returns when a guard fails


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
    namespace = _namespace(specialization)
    lines = ["def run(args, kwargs, times=1):",
             *_call_lines(specialization, namespace, flattened=False, repeatable=True)]
    return namespace.define("\n".join(lines) + "\n", "run")


def attempt(specialization):
    """``attempt(args, kwargs)``: the call if the specialization's guards hold, else ``MISS``:
    checks and call in one Python function (a call's fast path, see ``CompiledFunction``)."""
    namespace = _namespace(specialization)
    guards = specialization.guards
    namespace.bindings.update(guards.bindings, MISS=MISS)
    lines = ["def attempt(args, kwargs):", *guards.lines(lambda k: "MISS"),
             *_call_lines(specialization, namespace, flattened=guards.flattens,
                          repeatable=False)]
    return namespace.define("\n".join(lines) + "\n", "attempt")


def _namespace(spec):
    return _Namespace(_flatten=pytree.flatten, _unflatten=pytree.unflatten, _make=Tensor._make,
                      _contiguous=_contiguous, _view_of=_view_of, _accumulator=AccumulateGrad.of,
                      G=grad_mode._state, P=spec.program, Node=CompiledFunctionBackward)


def _call_lines(spec, ns, flattened, repeatable):
    """The body of a call: fetch, kernel, write-backs, ``.grad``, outputs, backward node.
    ``repeatable``: it takes ``times`` (the kernel's repeated form); ``flattened``: ``flat``
    is already the flattened arguments."""
    p = spec.program
    times = "times" if repeatable else "1"
    lines = []
    if not flattened:
        lines.append("    flat = args" if spec.flat_is_args else
                     "    flat = _flatten((args, kwargs))[0]")
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
    if repeatable:
        lines += ["    if times == 1:",
                  f"        results = P.forward({arguments})",
                  "    else:",
                  f"        results = P.forward_repeated(times, {arguments})"]
    else:
        lines.append(f"    results = P.forward({arguments})")
    for index, bumps in p.version_bumps:  # as eager's writes (and in-place view ops) bump them
        lines.append(f"    t{index}._version_counter.value += {times} * {bumps}")
    for owner, k in p.grad_sets:
        value = "None" if k is None else f"_make(results[{k}])"
        lines.append(f"    {_source_expression(owner, ns)}._grad = {value}")
    outputs = []
    for j, (kind, payload) in enumerate(p.user_outputs):
        if kind == "source":
            outputs.append(f"t{payload}")
            continue
        if kind == "view":
            index, chain, requires_grad = payload
            lines.append(f"    v{j} = _view_of(t{index}, {ns.bind(chain, 'W')}, {requires_grad})")
            outputs.append(f"v{j}")
            continue
        made = f"_make(results[{payload}])" if kind == "result" else \
            f"_make({ns.bind(payload, 'A')}.copy())"
        lines.append(f"    o{j} = {made}")
        if p.output_versions[j]:  # (a tensor the call wrote into after making it)
            lines.append(f"    o{j}._version_counter.value = {p.output_versions[j]}")
        outputs.append(f"o{j}")
    made = [o for o in outputs if o.startswith("o")]
    if made:  # made under inference_mode, as eager marks them
        lines.append("    if G.inference:")
        lines += [f"        {o}._inference = True" for o in made]
    if spec.needs_node:
        lines += _backward_node_lines(p, outputs)
    lines.append("    return " + _returned(spec, outputs, ns))
    return lines


def _backward_node_lines(p, outputs):
    """The outputs' shared ``CompiledFunctionBackward``: its edges to the inputs' nodes (their
    ``grad_fn``, or their ``AccumulateGrad``), the residuals and the versions of the sources it
    reads (to detect in-place changes before backward). Outputs whose graph the traced call
    freed share a node without residuals (backward through them raises), each with an output
    number of its own: gradients summed into one slot would need one shape."""
    lines = []
    if p.backward is not None:
        edges = ", ".join(f"(g, t{i}._output_nr) if (g := t{i}.grad_fn) is not None "
                          f"else (_accumulator(t{i}), 0)" for i in p.wrt)
        sources = ", ".join(f"(t{i}, t{i}._version_counter.value)"
                            for kind, i in p.backward_args if kind == "source")
        lines.append(f"    node = Node(({edges}{',' if len(p.wrt) == 1 else ''}), P, "
                     f"results[{p.n_forward_results}:], [{sources}])")
    if any(p.freed_outputs):
        lines.append("    freed = Node((), None, None, None)")
    freed_numbers = itertools.count()
    for output, cotangent, freed in zip(outputs, p.differentiable_outputs, p.freed_outputs):
        if cotangent is not None:
            node, number = "node", cotangent
        elif freed:
            node, number = "freed", next(freed_numbers)
        else:
            continue
        lines += [f"    {output}._grad_fn = {node}", f"    {output}._requires_grad = True",
                  f"    {output}._output_nr = {number}"]
    return lines


def _returned(spec, outputs, namespace):
    """The expression rebuilding what the function returned from its output tensors."""
    if spec.returns_one_tensor:
        return outputs[0]
    it = iter(outputs)
    leaves = [next(it) if spec.is_tensor_leaf(leaf) else namespace.bind(leaf, "V")
              for leaf in spec.output_leaves]
    return f"_unflatten({namespace.bind(spec.output_spec, 'T')}, [{', '.join(leaves)}])"


def _view_of(tensor, chain, requires_grad):
    """A returned view of a source made again by eager's view primitives, as the traced call
    made it: it shares the source's memory, version counter and autograd history (``x.detach()``
    is the empty chain, detached)."""
    for op, params, position in chain:
        result = PRIMITIVES[op](tensor, **params)
        tensor = result[position] if type(result) is tuple else result
    if not requires_grad and (tensor._requires_grad or not chain):
        tensor = tensor.detach()
    return tensor


def _contiguous(array):
    """``array`` C-contiguous (``np.asarray``: ``ascontiguousarray`` makes a 0-d array 1-d)."""
    return np.asarray(array, order="C")
