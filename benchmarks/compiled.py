"""tapegrad.compile against its peers, on the workloads of DESIGN.md (not a test: it measures).

Implementations per workload, measured in one process, alternating, medians of repeated runs:
``tapegrad-compiled`` (whole training steps compiled), ``tapegrad-repeat`` (the line fit's 200
compiled steps as one ``repeat(200, ...)`` launch), ``tapegrad-eager``, ``numpy`` (forward and
backward written by hand), ``numba-hand`` (the same, fused by hand into one ``@njit`` function: the
target the compiler is held to; for the line fit, the whole 200-step loop), ``numba-hand-steps``
(the line fit as 200 calls of a hand-fused one-step kernel: the peer of 200 compiled calls),
``torch-eager`` and ``torch-compile`` when PyTorch is installed. ``mlp-small-dropout`` (the
small MLP with dropout in training mode, random masks drawn every step) has no hand-written peers.
Plus compile latency: seconds from a fresh process to the first compiled step of the small MLP,
with a cold and with a warm on-disk kernel cache, next to Numba's own floor (a fresh process
calling one cached one-line kernel).

    python -m benchmarks.compiled            # everything, printed as a table
    python -m benchmarks.compiled --quick    # fewer repetitions

``run()`` returns rows of ``{"workload", "impl", "median_s"}`` for the common benchmark runner.
"""
import argparse
import functools
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

from benchmarks.timing import settle

__all__ = ["run", "WORKLOADS", "compile_latency"]

LR = 0.1


# ------------------------------------------------------------------------------------ data

def _mlp_data(widths, batch, seed=0):
    rng = np.random.default_rng(seed)
    layers = []
    for fan_in, fan_out in zip(widths[:-1], widths[1:]):
        bound = 1 / np.sqrt(fan_in)
        layers.append((rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32),
                       rng.uniform(-bound, bound, fan_out).astype(np.float32)))
    x = rng.standard_normal((batch, widths[0])).astype(np.float32)
    y = rng.integers(0, widths[-1], batch)
    return layers, x, y


def _line_data(seed=0):
    rng = np.random.default_rng(seed)
    x = np.linspace(-1, 1, 100, dtype=np.float32)
    y = (2 * x - 1 + 0.1 * rng.standard_normal(100)).astype(np.float32)
    return x, y, rng.standard_normal(1).astype(np.float32)


def _chain_data(n=1_000_000, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(3)]


# ----------------------------------------------------------------- tapegrad and PyTorch

def _tiny(lib, compiled):
    def forward_backward(x):
        y = x ** 2 + 2 * x
        y.backward()
        return y
    run = _compile(lib, forward_backward, compiled)
    x = lib.tensor(3.0, requires_grad=True)

    def step():
        x.grad = None
        return run(x)
    return step


def _line_fit(lib, compiled, repeat=False):
    x_data, y_data, w0 = _line_data()
    x, y = lib.from_numpy(x_data), lib.from_numpy(y_data)
    w = lib.tensor(w0, requires_grad=True)
    b = lib.zeros(1, requires_grad=True)

    def train_step(w, b):
        loss = ((w * x + b - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            w -= LR * w.grad
            b -= LR * b.grad
        w.grad.zero_()
        b.grad.zero_()
        return loss
    train = _compile(lib, train_step, compiled)
    # reset through the memory the tensors share with numpy, as the hand-written peers do: the
    # reset is no part of the workload, and eager copy_/zero_ calls cost more than a fused step
    w_memory, b_memory = w.detach().numpy(), b.detach().numpy()

    def step():
        w_memory[:] = w0
        b_memory[:] = 0
        if repeat:
            return train.repeat(200, w, b)
        for _ in range(200):
            loss = train(w, b)
        return loss
    return step


def _mlp(lib, compiled, widths, batch, dropout=0.0):
    """``dropout`` > 0: a Dropout after each hidden ReLU, in training mode (fresh random masks on
    every step, which a compiled step draws as graph inputs)."""
    layers, x_data, y_data = _mlp_data(widths, batch)
    modules = []
    for weight, bias in layers:
        linear = lib.nn.Linear(weight.shape[1], weight.shape[0])
        with lib.no_grad():
            linear.weight.copy_(lib.from_numpy(weight))
            linear.bias.copy_(lib.from_numpy(bias))
        modules += [linear, lib.nn.ReLU()] + ([lib.nn.Dropout(dropout)] if dropout else [])
    model = lib.nn.Sequential(*modules[:-2 if dropout else -1])
    loss_fn = lib.nn.CrossEntropyLoss()
    optimizer = lib.optim.SGD(model.parameters(), lr=LR)
    x, y = lib.from_numpy(x_data), lib.from_numpy(y_data)

    def train_step(x, y):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss
    train = _compile(lib, train_step, compiled)
    return lambda: train(x, y)


def _chain(lib, compiled):
    x, w, b = (lib.from_numpy(a).requires_grad_() for a in _chain_data())

    def forward_backward(x, w, b):
        f = (lib.tanh(x * w + b) * lib.sigmoid(x) + lib.exp(-x * x)).sum()
        f.backward()
        return f
    run = _compile(lib, forward_backward, compiled)

    def step():
        x.grad = w.grad = b.grad = None
        return run(x, w, b)
    return step


def _compile(lib, function, compiled):
    if not compiled:
        return function
    if lib.__name__ == "torch":
        # torch.compile's default: the forward and backward graphs (the optimizer step and the
        # backward() call inside the function break the graph; that is how PyTorch users run it)
        return lib.compile(function)
    return lib.compile(function)


# ---------------------------------------------------------------------- hand-written numpy

def _tiny_numpy():
    x = np.float32(3.0)

    def step():
        return x ** 2 + 2 * x, 2 * x + 2
    return step


def _line_fit_numpy():
    x, y, w0 = _line_data()

    def step():
        w, b = w0.copy(), np.zeros(1, np.float32)
        for _ in range(200):
            residual = w * x + b - y
            loss = np.mean(residual * residual)
            grad = (2 / x.size) * residual
            w -= LR * np.sum(grad * x)
            b -= LR * np.sum(grad)
        return loss
    return step


def _mlp_numpy(widths, batch):
    layers, x, y = _mlp_data(widths, batch)
    params = [(w.copy(), b.copy()) for w, b in layers]
    rows = np.arange(batch)

    def step():
        inputs, act = [], x
        for i, (weight, bias) in enumerate(params):
            inputs.append(act)
            act = act @ weight.T + bias
            if i < len(params) - 1:
                act = np.maximum(act, 0)
        shifted = act - act.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, y])
        grad = exp / total
        grad[rows, y] -= 1
        grad /= batch
        for i in range(len(params) - 1, -1, -1):
            weight, bias = params[i]
            grad_weight, grad_bias = grad.T @ inputs[i], grad.sum(axis=0)
            if i > 0:
                grad = (grad @ weight) * (inputs[i] > 0)
            weight -= LR * grad_weight
            bias -= LR * grad_bias
        return loss
    return step


def _chain_numpy():
    x, w, b = _chain_data()

    def step():
        t = np.tanh(x * w + b)
        s = 1 / (1 + np.exp(-x))
        e = np.exp(-x * x)
        f = np.sum(t * s + e)
        dt = (1 - t * t) * s
        return f, dt * w + t * s * (1 - s) - 2 * x * e, dt * x, dt
    return step


# --------------------------------------------------------------------- hand-written numba

@functools.cache
def _numba_kernels():
    """One fused @njit function per workload, written by hand (imports numba when first used)."""
    from numba import njit, prange

    from tapegrad.compile import kernel_math as M

    @njit(error_model="numpy", fastmath={"contract", "nsz", "arcp", "reassoc"})
    def tiny(x):
        return x * x + np.float32(2) * x, np.float32(2) * x + np.float32(2)

    @njit(error_model="numpy", fastmath={"contract", "nsz", "arcp", "reassoc"})
    def line_fit(x, y, w0, steps, lr):
        w, b = w0[0], np.float32(0)
        loss = np.float32(0)
        n = x.size
        for _ in range(steps):
            loss = np.float32(0)
            gw = np.float32(0)
            gb = np.float32(0)
            for i in range(n):
                r = w * x[i] + b - y[i]
                loss += r * r
                gw += r * x[i]
                gb += r
            w -= lr * np.float32(2 / n) * gw
            b -= lr * np.float32(2 / n) * gb
            loss /= n
        return loss, w, b

    @njit(error_model="numpy", fastmath={"contract", "nsz", "arcp", "reassoc"})
    def line_fit_step(x, y, w, b, lr):
        """One training step, updating the one-element arrays w and b in place."""
        loss = np.float32(0)
        gw = np.float32(0)
        gb = np.float32(0)
        n = x.size
        for i in range(n):
            r = w[0] * x[i] + b[0] - y[i]
            loss += r * r
            gw += r * x[i]
            gb += r
        w[0] -= lr * np.float32(2 / n) * gw
        b[0] -= lr * np.float32(2 / n) * gb
        return loss / n

    @njit(error_model="numpy", fastmath={"contract", "nsz", "arcp", "reassoc"})
    def mlp_step(x, y, w1, b1, w2, b2, w3, b3, lr):
        h1 = np.maximum(np.dot(x, w1.T) + b1, np.float32(0))
        h2 = np.maximum(np.dot(h1, w2.T) + b2, np.float32(0))
        logits = np.dot(h2, w3.T) + b3
        batch, classes = logits.shape
        grad = np.empty_like(logits)
        loss = 0.0
        for r in range(batch):
            m = logits[r].max()
            total = np.float32(0)
            for c in range(classes):
                e = M.exp32(logits[r, c] - m)
                grad[r, c] = e
                total += e
            loss += np.log(total) + m - logits[r, y[r]]
            for c in range(classes):
                grad[r, c] /= total * batch
            grad[r, y[r]] -= np.float32(1) / batch
        g2 = np.dot(grad, w3) * (h2 > 0)
        g1 = np.dot(g2, w2) * (h1 > 0)
        w3 -= lr * np.dot(grad.T, h2)
        b3 -= lr * grad.sum(axis=0)
        w2 -= lr * np.dot(g2.T, h1)
        b2 -= lr * g2.sum(axis=0)
        w1 -= lr * np.dot(g1.T, x)
        b1 -= lr * g1.sum(axis=0)
        return loss / batch

    @njit(parallel=True, error_model="numpy", fastmath={"contract", "nsz", "arcp", "reassoc"})
    def chain(x, w, b, gx, gw, gb):
        n = x.size
        blocks = (n + 16383) // 16384
        partial = np.empty(blocks)
        for k in prange(blocks):
            lo, hi = k * 16384, min(n, k * 16384 + 16384)
            xs, ws, bs = x[lo:hi], w[lo:hi], b[lo:hi]
            gxs, gws, gbs = gx[lo:hi], gw[lo:hi], gb[lo:hi]
            total = np.float32(0)
            for i in range(hi - lo):
                xi, wi = xs[i], ws[i]
                t = M.tanh32(xi * wi + bs[i])
                s = M.sigmoid32(xi)
                e = M.exp32(-xi * xi)
                total += t * s + e
                dt = (np.float32(1) - t * t) * s
                gxs[i] = dt * wi + t * s * (np.float32(1) - s) - np.float32(2) * xi * e
                gws[i] = dt * xi
                gbs[i] = dt
            partial[k] = total
        return partial.sum()

    return tiny, line_fit, line_fit_step, mlp_step, chain


def _numba_steps():
    """The line fit as 200 calls of a hand-written one-step kernel: the peer of 200 calls of a
    compiled training step (the whole loop in one kernel is ``numba-hand``)."""
    _, _, line_fit_step, _, _ = _numba_kernels()
    x, y, w0 = _line_data()
    w, b, lr = w0.copy(), np.zeros(1, np.float32), np.float32(LR)

    def step():
        w[:] = w0
        b[:] = 0
        for _ in range(200):
            loss = line_fit_step(x, y, w, b, lr)
        return loss, w[0], b[0]
    return step


def _numba(workload):
    tiny, line_fit, _, mlp_step, chain = _numba_kernels()
    if workload == "tiny":
        x = np.float32(3.0)
        return lambda: tiny(x)
    if workload == "line-fit":
        x, y, w0 = _line_data()
        return lambda: line_fit(x, y, w0, 200, np.float32(LR))
    if workload in ("mlp-small", "mlp-large"):
        widths, batch = MLP_SIZES[workload]
        layers, x, y = _mlp_data(widths, batch)
        flat = [a.copy() for pair in layers for a in pair]
        return lambda: mlp_step(x, y, *flat, np.float32(LR))
    x, w, b = _chain_data()
    grads = [np.empty_like(x) for _ in range(3)]
    return lambda: chain(x, w, b, *grads)


# -------------------------------------------------------------------------------- registry

MLP_SIZES = {"mlp-small": ((64, 128, 128, 10), 64), "mlp-large": ((784, 1024, 1024, 10), 256)}

WORKLOADS = {
    "tiny": ("tiny 0-d graph y = x**2 + 2x, fwd+bwd", lambda lib, c: _tiny(lib, c), _tiny_numpy),
    "line-fit": ("seed line fit, 200 steps", _line_fit, _line_fit_numpy),
    "mlp-small": ("MLP 64-128-128-10 SGD step, batch 64",
                  lambda lib, c: _mlp(lib, c, *MLP_SIZES["mlp-small"]),
                  lambda: _mlp_numpy(*MLP_SIZES["mlp-small"])),
    # no hand-written peers: random masks make the step a different program in each library
    "mlp-small-dropout": ("MLP 64-128-128-10 with Dropout(0.1) after each ReLU, SGD step",
                          lambda lib, c: _mlp(lib, c, *MLP_SIZES["mlp-small"], dropout=0.1),
                          None),
    "mlp-large": ("MLP 784-1024-1024-10 SGD step, batch 256",
                  lambda lib, c: _mlp(lib, c, *MLP_SIZES["mlp-large"]),
                  lambda: _mlp_numpy(*MLP_SIZES["mlp-large"])),
    "chain-1M": ("sum(tanh(x*w+b)*sigmoid(x)+exp(-x*x)) fwd+bwd, 1M float32", _chain,
                 _chain_numpy),
}


def _builders(workload, impls):
    """impl -> zero-argument step, for the implementations available here."""
    _, framework, numpy_step = WORKLOADS[workload]
    builders = {}
    for impl in impls:
        try:
            if impl == "tapegrad-compiled":
                import tapegrad
                builders[impl] = framework(tapegrad, True)
            elif impl == "tapegrad-repeat":
                if workload == "line-fit":  # the one workload that is a loop of steps
                    import tapegrad
                    builders[impl] = _line_fit(tapegrad, True, repeat=True)
            elif impl == "tapegrad-eager":
                import tapegrad
                builders[impl] = framework(tapegrad, False)
            elif numpy_step is None and impl in ("numpy", "numba-hand"):
                continue  # (no hand-written version of this workload)
            elif impl == "numpy":
                builders[impl] = numpy_step()
            elif impl == "numba-hand":
                builders[impl] = _numba(workload)
            elif impl == "numba-hand-steps":
                if workload == "line-fit":
                    builders[impl] = _numba_steps()
            elif impl in ("torch-eager", "torch-compile"):
                import torch
                builders[impl] = framework(torch, impl == "torch-compile")
        except ImportError:
            continue
    return builders


def _measure(step, budget_s, min_runs):
    times = []
    deadline = time.perf_counter() + budget_s
    while len(times) < min_runs or time.perf_counter() < deadline:
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
        if len(times) >= 2000:
            break
    return times


IMPLS = ("tapegrad-compiled", "tapegrad-repeat", "tapegrad-eager", "numpy", "numba-hand",
         "numba-hand-steps", "torch-eager", "torch-compile")


def run(workloads=None, impls=IMPLS, quick=False, rounds=None, latency=True):
    """Rows ``{"workload", "impl", "median_s"}`` (plus ``"note"`` where something is skipped)."""
    rows = []
    rounds = rounds or (2 if quick else 5)
    for workload in workloads or WORKLOADS:
        if workload not in WORKLOADS:
            continue  # one of the eager suite's workloads: --workloads selects across suites
        builders = _builders(workload, impls)
        samples = {impl: [] for impl in builders}
        broken = {}
        for impl, step in builders.items():  # warm up: traces, compiles (not timed)
            try:
                for _ in range(3):
                    step()
            except Exception as error:  # noqa: BLE001  a peer that fails here is reported, not fatal
                broken[impl] = f"{type(error).__name__}: {str(error).splitlines()[0][:80]}"
        for _ in range(rounds):  # alternate implementations, a slice of time each
            for impl, step in builders.items():
                if impl not in broken:
                    settle(step)  # (see benchmarks/timing.py: other peers' spinning threads)
                    samples[impl] += _measure(step, 0.05 if quick else 0.2, 3)
        for impl in builders:
            row = {"workload": workload, "impl": impl,
                   "median_s": float(np.median(samples[impl])) if samples[impl] else None}
            if impl in broken:
                row["note"] = broken[impl]
            rows.append(row)
    if latency:
        rows += compile_latency()
    return rows


# The model and data of a latency run (``rng`` and ``nn`` are defined before)
LATENCY_MODELS = {
    "small MLP": """
        model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                              nn.Linear(128, 10))
        x = tapegrad.from_numpy(rng.standard_normal((64, 64)).astype(np.float32))
        y = tapegrad.from_numpy(rng.integers(0, 10, 64))
    """,
    "GRU classifier, 3 time steps": """
        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.gru = nn.GRU(8, 16, batch_first=True)
                self.head = nn.Linear(16, 3)

            def forward(self, x):
                out, _ = self.gru(x)
                return self.head(out[:, -1])
        model = Classifier()
        x = tapegrad.from_numpy(rng.standard_normal((4, 3, 8)).astype(np.float32))
        y = tapegrad.from_numpy(rng.integers(0, 3, 4))
    """,
}

LATENCY_PROGRAM = textwrap.dedent("""
    import time
    started = time.perf_counter()
    import numpy as np
    import tapegrad
    from tapegrad import nn
    imported = time.perf_counter()
    rng = np.random.default_rng(0)
    {model}
    optimizer = tapegrad.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()

    @tapegrad.compile
    def step(x, y):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    step(x, y)   # traces (runs eagerly) and compiles
    step(x, y)   # the first compiled step
    done = time.perf_counter()
    print(done - imported, time.time())
""")


def compile_latency(model="small MLP"):
    """Fresh-process seconds to the first compiled training step of ``model`` (a key of
    ``LATENCY_MODELS``): cold, then warm cache."""
    program = LATENCY_PROGRAM.replace("{model}", textwrap.dedent(LATENCY_MODELS[model]).strip())
    what = "first compiled step" if model == "small MLP" else f"first compiled step, {model}"
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TAPEGRAD_CACHE_DIR=cache)
        # a user's Python caches bytecode: without it every run compiles tapegrad's sources anew
        # (about 0.4 s), which is no part of compiling kernels
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for label in ("cold", "warm"):
            done, seconds = _seconds_to_result([sys.executable, "-c", program], env)
            if done.returncode:
                rows.append({"workload": f"{what} ({label} cache)",
                             "impl": "tapegrad-compiled", "median_s": None,
                             "note": done.stderr.strip().splitlines()[-1]})
                continue
            after_import = float(done.stdout.split()[-2])
            rows.append({"workload": f"{what} ({label} cache)",
                         "impl": "tapegrad-compiled", "median_s": seconds,
                         "note": f"after imports: {after_import:.2f} s"})
        rows.append({"workload": f"{what} (warm cache)", "impl": "numba-hand",
                     "median_s": _numba_floor(cache, env),
                     "note": "the floor: import numba, call one cached @njit function"})
    return rows


NUMBA_FLOOR_PROGRAM = textwrap.dedent("""
    import time
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def add_one(x):
        return x + 1

    add_one(np.ones(2))
    print(time.time())
""")


def _numba_floor(directory, env):
    """Fresh-process seconds to the first call of a one-line ``@njit(cache=True)`` function
    whose machine code is cached: what any warm start through Numba costs (its import and its
    CPU target's set-up), whatever the kernel."""
    script = os.path.join(directory, "numba_floor.py")
    with open(script, "w") as file:
        file.write(NUMBA_FLOOR_PROGRAM)
    subprocess.run([sys.executable, script], env=env, check=True, timeout=600,
                   capture_output=True)  # fills the cache
    return _seconds_to_result([sys.executable, script], env)[1]


def _seconds_to_result(command, env):
    """(the finished process, seconds from its start to the moment it printed the wall-clock
    time as the last word of its output): the first result, without the interpreter's
    teardown (unloading Numba and LLVM takes ~0.2 s more, after the result)."""
    started = time.time()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        return done, None
    return done, float(done.stdout.split()[-1]) - started


def format_rows(rows):
    """A table: per workload the medians, and each implementation's ratio to tapegrad-compiled
    and to the hand-written Numba kernel."""
    lines = []
    by_workload = {}
    for row in rows:
        by_workload.setdefault(row["workload"], []).append(row)
    for workload, group in by_workload.items():
        title = WORKLOADS[workload][0] if workload in WORKLOADS else workload
        lines.append(title)
        reference = {r["impl"]: r["median_s"] for r in group}
        compiled = reference.get("tapegrad-compiled")
        for row in group:
            median = row["median_s"]
            text = "failed" if median is None else _time(median)
            ratio = ""
            if median and compiled and row["impl"] != "tapegrad-compiled":
                ratio = f"   compiled / this = {compiled / median:6.2f}x"
            note = f"   ({row['note']})" if row.get("note") else ""
            lines.append(f"  {row['impl']:<18} {text:>12}{ratio}{note}")
    return "\n".join(lines)


def _time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--workloads", nargs="*", choices=list(WORKLOADS), default=None)
    parser.add_argument("--impls", nargs="*", choices=IMPLS, default=list(IMPLS))
    parser.add_argument("--no-latency", action="store_true", help="skip the fresh-process runs")
    parser.add_argument("--recurrent-latency", action="store_true",
                        help="also time the first compiled step of a small GRU (about a minute)")
    args = parser.parse_args(argv)
    rows = run(args.workloads, args.impls, args.quick, latency=not args.no_latency)
    if args.recurrent_latency:
        rows += compile_latency("GRU classifier, 3 time steps")
    print(format_rows(rows))


if __name__ == "__main__":
    main()
