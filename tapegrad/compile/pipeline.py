"""From a trace to compiled kernels: autodiff, passes, code generation, Numba.

``build(trace)`` runs the stages in order, times each, and returns a ``Program``: the forward (and
backward) kernels, how their arguments are gathered and what their results mean, plus the text
of every stage for ``explain()``.
"""
import hashlib
import time

import numba
import numpy as np

from ..ops import PRIMITIVES
from . import cache, fallback, logs
from .autodiff import differentiate
from .codegen import generate
from .ir import Graph, Value
from .lowerings import uses_fallback
from .passes import (Call, common_subexpression_elimination, dead_code_elimination, decompose,
                     fold_constants, fold_transposes, fuse, partition)

__all__ = ["build", "Program", "CompileError"]

class CompileError(RuntimeError):
    """The traced graph could not be turned into kernels (the function then runs eagerly)."""


class Program:
    """Everything needed to run one specialization, and to explain it."""

    def __init__(self):
        self.forward = None           # the Numba dispatcher
        self.forward_repeated = None  # forward called n times in one launch (compiled when used)
        self.backward = None
        self.forward_args = []        # per kernel parameter: ("input", i), ("constant", array),
                                      # ("function", numpy's BLAS)
        self.backward_args = []       # ("saved", i) / ("source", i) / ("cotangent", i) / constant
        self.user_outputs = []        # per returned tensor: ("result", k) | ("source", i) |
                                      # ("constant", array) | ("view", see _source_views)
        self.mutations = []           # indices of the sources the forward kernel writes into
        self.version_bumps = []       # (source index, by how much a call bumps its _version)
        self.grad_sets = []           # (owner source, result index or None)
        self.n_forward_results = 0
        self.differentiable_outputs = []  # per returned tensor: cotangent index or None
        self.freed_outputs = []       # per returned tensor: backward already ran through it
        self.output_versions = []     # per returned tensor: its _version (the writes into it)
        self.wrt = []                 # source indices the backward returns gradients for
        self.wrt_results = []         # per wrt: backward result index or None
        self.cotangent_types = []     # (shape, dtype) of each differentiable output's gradient
        self.text = {}                # stage name -> printable text
        self.graphs = {}              # "forward"/"backward" -> the kernel's ir.Graph (tapegrad.viz)
        self.timings = {}
        self.loaded_from_cache = False
        self.fallback_ops = []        # primitives run by numpy inside a kernel
        self.traced_ops = set()       # primitives in the traced and differentiated graph


def build(trace, function_name):
    """The ``Program`` of a (complete, unbroken) trace; stages are timed into its ``timings``."""
    program = Program()
    graph = trace.graph
    program.text["forward graph (traced)"] = str(_with_outputs(graph, trace))
    program.version_bumps = trace.version_bumps
    program.output_versions = trace.output_versions
    program.traced_ops = {node.op for node in graph.nodes}

    started = time.perf_counter()
    computed, writebacks = _plan_forward_results(trace, program)
    differentiable, wrt = _plan_differentiation(trace, program)
    if differentiable and wrt:
        cotangents, grads = differentiate(graph, trace.concrete, trace.differentiable,
                                          differentiable, wrt, trace.untaped_writes)
        program.traced_ops = {node.op for node in graph.nodes}  # now with the backward rules
        program.timings["autodiff"] = time.perf_counter() - started
        started = time.perf_counter()
        forward_graph, backward_graph, backward_inputs = _split(
            program, graph, computed, cotangents, [grads[w] for w in wrt])
    else:
        forward_graph = _optimize(Graph(graph.inputs, graph.nodes, computed, graph.constants))
        backward_graph = backward_inputs = None
    program.timings["passes"] = time.perf_counter() - started

    started = time.perf_counter()
    graph_key = _graph_key(forward_graph, backward_graph)
    kernels = [_kernel(program, "forward", forward_graph, graph_key, writebacks)]
    returned = {slot: i for i, slot in enumerate(kernels[0].returned)}
    program.user_outputs = [(kind, returned[p] if kind == "result" else p)
                            for kind, p in program.user_outputs]
    program.grad_sets = [(owner, None if slot is None else returned[slot])
                         for owner, slot in program.grad_sets]
    program.n_forward_results = sum(1 for slot in kernels[0].returned if slot < len(computed))
    if backward_graph is not None:
        kernels.append(_kernel(program, "backward", backward_graph, graph_key, {}))
    source = _module_source(kernels, graph_key)
    program.text["kernel source"] = source
    key = hashlib.sha256(source.encode()).hexdigest()[:20]
    program.timings["codegen"] = time.perf_counter() - started

    started = time.perf_counter()
    module, path, rebuilt = cache.load(key, source)
    program.cache_path = path
    if rebuilt:
        logs.log("kernels", f"cache entry {path} did not match its graph: rebuilt")
    for kernel in kernels:
        for fallback_key, (op, params) in kernel.fallbacks.items():
            fallback.register(fallback_key, op, params)
    program.forward_args = kernels[0].args
    program.forward = _compiled(module, key, "forward", forward_graph, kernels[0].args)
    program.forward_repeated = module.forward_repeated
    if backward_graph is not None:
        program.backward_args = [backward_inputs[payload] if kind == "input" else (kind, payload)
                                 for kind, payload in kernels[1].args]
        program.backward = _compiled(module, key, "backward", backward_graph, kernels[1].args)
    program.timings["numba"] = time.perf_counter() - started
    program.loaded_from_cache = all(_from_cache(kernel) for kernel in
                                    (program.forward, program.backward) if kernel is not None)
    origin = "loaded from" if program.loaded_from_cache else "compiled into"
    logs.log("kernels", f"{function_name}: kernels {origin} {path}")
    return program


def _plan_forward_results(trace, program):
    """What the forward kernel computes: ``computed`` (values, in result order) and the
    ``writebacks`` (result position -> source index) it writes into source arrays instead."""
    graph = trace.graph
    inputs = {v: i for i, v in enumerate(graph.inputs)}
    computed = []

    def slot(value):
        """The result position of ``value`` (one per value, outside the written-back ones)."""
        for position, known in enumerate(computed):
            if known is value and position not in writebacks:
                return position
        computed.append(value)
        return len(computed) - 1

    writebacks, mutated = {}, {}
    for index, value in trace.mutations:  # a slot of its own: it is written, not returned
        computed.append(value)
        writebacks[len(computed) - 1] = index
        mutated[value] = index
        program.mutations.append(index)
    for leaf, freed, view in zip(_tensor_outputs(trace), trace.output_freed,
                                 _source_views(trace, inputs, mutated)):
        if view is not None:
            program.user_outputs.append(("view", view))
        elif leaf in inputs:
            program.user_outputs.append(("source", inputs[leaf]))
        elif leaf in mutated:  # a tensor the call wrote into: the tensor itself, as eager returns
            program.user_outputs.append(("source", mutated[leaf]))
        elif leaf in graph.constants:
            program.user_outputs.append(("constant", graph.constants[leaf]))
        else:
            program.user_outputs.append(("result", slot(leaf)))
        # (a source or a view of one keeps its own tape, whose freed nodes raise by themselves)
        program.freed_outputs.append(freed and program.user_outputs[-1][0] == "result")
    for owner, value in trace.grad_sets:
        program.grad_sets.append((owner, None if value is None else slot(value)))
    return computed, writebacks


def _source_views(trace, inputs, mutated):
    """Per returned tensor, None, or how to make it again from a source as eager returns it:
    ``(source index, view primitives to apply, requires_grad as returned)``. A view of an
    argument (``x.t()``, ``x[1:]``) or an alias (``x.detach()``) shares the source's memory and
    version counter: a copy from the kernel would not see later writes into either. (A view
    with a grad_fn comes from the kernel, its gradient from the compiled backward: writes into
    it or its source are then errors anyway, outside ``no_grad``.)"""
    producers = trace.graph.producers()
    bases = {**inputs, **mutated}
    views = []
    for leaf, is_source, requires_grad, has_grad_fn in zip(
            _tensor_outputs(trace), trace.output_is_source, trace.output_requires_grad,
            trace.output_has_grad_fn):
        if has_grad_fn:
            views.append(None)
            continue
        chain, value = [], leaf
        while value not in bases and value in producers:
            node = producers[value]
            if not (PRIMITIVES[node.op].is_view and len(node.inputs) == 1):
                break
            chain.append((node.op, node.params, node.outputs.index(value)))
            value = node.inputs[0]
        found = value in bases and (chain or not is_source)
        views.append((bases[value], tuple(reversed(chain)), requires_grad) if found else None)
    return views


def _plan_differentiation(trace, program):
    """The outputs a backward kernel differentiates (those whose tape is alive) and the sources
    it differentiates them with respect to. An output made with grad mode on requires grad as
    traced, whatever the mode at the call (``enable_grad()`` inside a call under ``no_grad``)."""
    inputs = set(trace.graph.inputs)
    differentiable = []
    for leaf, freed, requires_grad, (kind, _) in zip(
            _tensor_outputs(trace), trace.output_freed, trace.output_requires_grad,
            program.user_outputs):
        if requires_grad and leaf in trace.differentiable and not freed \
                and leaf not in inputs and kind != "view":  # (views: eager's own nodes)
            if leaf not in differentiable:
                differentiable.append(leaf)
            program.differentiable_outputs.append(differentiable.index(leaf))
        else:
            program.differentiable_outputs.append(None)
    program.cotangent_types = [(v.shape, v.dtype) for v in differentiable]
    wrt = [v for v in trace.graph.inputs if v in trace.differentiable]
    program.wrt = [trace.graph.inputs.index(v) for v in wrt]
    return differentiable, wrt


def _optimize(graph):
    graph = fold_transposes(fold_constants(decompose(graph)))
    graph, _ = common_subexpression_elimination(graph)
    return dead_code_elimination(graph)


def _split(program, graph, computed, cotangents, grad_values):
    """The joint graph, optimized, then partitioned into a forward and a backward graph; and
    where each backward input comes from (("saved", i), ("source", i) or ("cotangent", i))."""
    present = [g for g in grad_values if g is not None]
    joint = _optimize(Graph(graph.inputs + cotangents, graph.nodes, computed + present,
                            graph.constants))
    split = partition(joint, joint.outputs[:len(computed)], cotangents,
                      joint.outputs[len(computed):])
    program.text["joint graph"] = str(joint)
    program.text["save or recompute"] = str(split)
    positions = iter(range(len(present)))
    program.wrt_results = [None if g is None else next(positions) for g in grad_values]
    saved = {v: i for i, v in enumerate(split.saved)}
    sources = {v: graph.inputs.index(v) for v in split.sources}
    cotangent = {v: i for i, v in enumerate(cotangents)}
    backward_inputs = [("saved", saved[v]) if v in saved else
                       ("source", sources[v]) if v in sources else
                       ("cotangent", cotangent[v]) for v in split.backward.inputs]
    return split.forward, split.backward, backward_inputs


def _graph_key(forward_graph, backward_graph):
    """A name for the graphs (it prefixes the kernels' fallback keys)."""
    parts = [forward_graph.fingerprint()]
    if backward_graph is not None:
        parts.append(backward_graph.fingerprint())
    return hashlib.sha256(":".join(parts).encode()).hexdigest()[:20]


def _kernel(program, name, graph, key, writebacks):
    schedule = fuse(graph)
    kernel = generate(graph, schedule, name, f"{key}:{name}", writebacks)
    program.graphs[name] = graph
    program.text[f"{name} graph"] = str(graph)
    program.text[f"{name} kernels (fused groups)"] = _describe(schedule, graph)
    program.fallback_ops += [group.node.op for group in schedule
                             if type(group) is Call and uses_fallback(group.node)]
    return kernel


def _tensor_outputs(trace):
    return [leaf for leaf in trace.output_leaves if isinstance(leaf, Value)]


def _compiled(module, key, name, graph, args):
    """The kernel compiled for its argument types now (from the disk cache when possible); an
    entry whose machine code fails to load is discarded and compiled afresh."""
    types = tuple(_numba_type(graph.inputs[payload]) if kind == "input" else
                  numba.typeof(payload) if kind == "function" else
                  numba.typeof(np.asarray(payload, order="C")) for kind, payload in args)
    try:
        getattr(module, name).compile(types)
        return getattr(module, name)
    except Exception as first_error:  # noqa: BLE001  a corrupt cache file fails in many ways
        logs.log("kernels", f"{name} kernel failed to load or compile ({first_error}); "
                            "discarding its cache entry and compiling again")
        cache.discard(key)
        with open(module.__file__, encoding="utf-8") as file:
            source = file.read()[len(cache.HEADER):]
        module, _, _ = cache.load(key, source)
        try:
            getattr(module, name).compile(types)
        except Exception as error:  # noqa: BLE001
            raise CompileError(f"Numba could not compile the {name} kernel: {error}") from error
        return getattr(module, name)


def _from_cache(dispatcher):
    return bool(dispatcher.stats.cache_hits) and not dispatcher.stats.cache_misses


def _numba_type(value):
    return numba.types.Array(numba.from_dtype(value.dtype), len(value.shape), "C")


def _module_source(kernels, key):
    lines = [f"# graph key {key}",
             "import numba",
             "import numpy as np",
             "from numba import njit, objmode, prange",
             "from tapegrad.compile import fallback as F",
             "from tapegrad.compile import kernel_math as M",
             ""]
    for kernel in kernels:
        lines += kernel.constants
    for kernel in kernels:
        lines += ["", kernel.source]
    params = ", ".join(f"a{i}" for i in range(len(kernels[0].args)))
    lines += ["", kernels[0].effects_source,
              "@njit(cache=True)",
              f"def forward_repeated(times, {params}):",
              "    # CompiledFunction.repeat(): the state a step changes lives in its arguments;",
              "    # only the last call's results are wanted",
              "    for _ in range(times - 1):",
              f"        forward_effects({params})",
              f"    return forward({params})", ""]
    return "\n".join(lines)


def _describe(schedule, graph):
    names = graph.names()
    return "\n".join(f"{i}: {group.describe(names)}" for i, group in enumerate(schedule))


def _with_outputs(graph, trace):
    outputs = [leaf for leaf in trace.output_leaves if isinstance(leaf, Value)]
    outputs += [v for _, v in trace.mutations]
    outputs += [v for _, v in trace.grad_sets if v is not None]
    return Graph(graph.inputs, graph.nodes, outputs, graph.constants)
