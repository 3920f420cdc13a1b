"""Compiled mode: trace a function into a graph, differentiate it, fuse it, compile it with Numba.

    import tapegrad as torch

    @torch.compile                      # or torch.compile(fn), torch.compile(fn, fullgraph=True),
    def step(x, y):                     #    torch.compile(model) for an nn.Module
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()                 # captured: forward, backward and update in one kernel
        optimizer.step()
        return loss

    step(x, y)                          # traces (runs eagerly) and compiles
    step(x, y)                          # runs the kernel
    print(step.explain())               # guards, graphs, save/recompute, fused groups, source
    torch.compile.set_logs(recompiles=True, timing=True)   # or TAPEGRAD_LOGS=recompiles,timing

Kernels are cached on disk under ``$TAPEGRAD_CACHE_DIR`` (default ``~/.cache/tapegrad``).

The stages, one module each: ``trace`` (record a call) → ``ir`` (the graph) → ``autodiff``
(backward from the op table's rules) → ``passes`` (decompose, fold transposes, CSE, DCE,
save-or-recompute partition, fusion) → ``codegen`` and ``lowerings`` (Numba source) → ``cache``
(on disk) → ``runtime`` (calls, guards from ``guards``, the backward node).
"""
from .logs import set_logs
from .runtime import CompiledFunction, CompiledFunctionBackward, CompileWarning, compile
from .trace import GraphBreakError

# ``tapegrad.compile`` is the function (the package is shadowed in ``tapegrad``'s namespace): the
# companions users need hang off it, as ``torch.compile``'s helpers hang off ``torch._dynamo``.
compile.set_logs = set_logs
compile.GraphBreakError = GraphBreakError
compile.CompileWarning = CompileWarning

__all__ = ["compile", "set_logs", "CompiledFunction", "CompiledFunctionBackward",
           "CompileWarning", "GraphBreakError"]
