"""The eager workloads, each written for tapegrad, hand-written numpy and PyTorch.

tapegrad mirrors PyTorch's API, so one function per workload (``lib`` is ``tapegrad`` or ``torch``)
serves both frameworks: they run literally the same code. The numpy version writes the forward and
the backward out by hand; it is what the autograd machinery costs on top of the arithmetic.

Every implementation builds its step from the same numpy data (same seed), and a step returns what
it computed (loss, gradients or updated parameters), so ``benchmarks.check`` can verify that all
implementations agree before anything is timed.
"""
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

__all__ = ["IMPLEMENTATIONS", "WORKLOADS", "Unavailable", "Workload", "import_framework",
           "to_numpy"]

IMPLEMENTATIONS = ("tapegrad", "numpy", "torch")


class Unavailable(Exception):
    """An implementation that cannot run here (PyTorch not installed, tapegrad.nn not written)."""


@dataclass(frozen=True)
class Workload:
    """One job, its sizes, its implementations and how closely they must agree (float32)."""

    name: str
    title: str
    sizes: dict  # size name ("full", "small") -> keyword arguments of make_data
    make_data: Callable  # (rng, **size) -> dict of numpy arrays and numbers
    framework_step: Callable  # (lib, data) -> step(); lib is tapegrad or torch
    numpy_step: Callable  # (data) -> step()
    rtol: float
    atol: float
    requires: tuple = ()  # attributes the framework must have, as "nn.Linear"

    def build(self, impl, size="full", seed=0):
        """A no-argument step for ``impl`` on fresh data; raises ``Unavailable`` if it can't run."""
        data = self.make_data(np.random.default_rng(seed), **self.sizes[size])
        if impl == "numpy":
            return self.numpy_step(data)
        lib = import_framework(impl)
        for path in self.requires:
            if _lookup(lib, path) is None:
                raise Unavailable(f"{impl}.{path} does not exist")
        return self.framework_step(lib, data)


def to_numpy(value):
    """A step's output (tensor of either framework, numpy array or scalar) as a numpy array."""
    if hasattr(value, "detach"):
        return value.detach().numpy()
    return np.asarray(value)


def import_framework(name):
    """The framework module ``tapegrad`` or ``torch``; ``Unavailable`` if it is not installed."""
    if name not in ("tapegrad", "torch"):
        raise ValueError(f"unknown implementation {name!r}; choose from {IMPLEMENTATIONS}")
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise Unavailable(f"{name} is not installed") from exc


def _lookup(lib, path):
    obj = lib
    for part in path.split("."):
        obj = getattr(obj, part, None)
    return obj


# ------------------------------------------------------------------------ 1. tiny 0-d graph
def _tiny_data(rng):
    return {"x": 3.0}


def _tiny_framework(lib, data):
    value = data["x"]

    def step():
        x = lib.tensor(value, requires_grad=True)
        y = x ** 2 + 2 * x
        y.backward()
        return y, x.grad
    return step


def _tiny_numpy(data):
    x = np.float32(data["x"])

    def step():
        y = x ** 2 + 2 * x
        grad = 2 * x + 2
        return y, grad
    return step


# ------------------------------------------------------------------ 2. the seed's line fit
def _line_fit_data(rng, points, steps):
    x = np.linspace(-1, 1, points, dtype=np.float32)
    y = (2 * x - 1 + 0.1 * rng.standard_normal(points)).astype(np.float32)
    w = rng.standard_normal(1).astype(np.float32)
    return {"x": x, "y": y, "w": w, "steps": steps, "lr": 0.1}


def _line_fit_framework(lib, data):
    """The loop of examples/fit_line.py: manual update under no_grad, then zero the grads."""
    x, y = lib.from_numpy(data["x"]), lib.from_numpy(data["y"])
    w0, steps, lr = data["w"], data["steps"], data["lr"]

    def step():
        w = lib.tensor(w0, requires_grad=True)
        b = lib.zeros(1, requires_grad=True)
        for _ in range(steps):
            loss = ((w * x + b - y) ** 2).mean()
            loss.backward()
            with lib.no_grad():
                w -= lr * w.grad
                b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
        return loss, w, b
    return step


def _line_fit_numpy(data):
    x, y, w0, steps, lr = data["x"], data["y"], data["w"], data["steps"], data["lr"]
    n = x.size

    def step():
        w, b = w0.copy(), np.zeros(1, np.float32)
        for _ in range(steps):
            residual = w * x + b - y
            loss = np.mean(residual * residual)
            d_residual = (2 / n) * residual
            w -= lr * np.sum(d_residual * x)
            b -= lr * np.sum(d_residual)
        return loss, w, b
    return step


# --------------------------------------------------------- 3, 4. MLP training step (SGD)
def _mlp_data(rng, widths, batch):
    """Inputs, class labels and PyTorch's default Linear initialisation U(±1/sqrt(fan_in))."""
    layers = []
    for fan_in, fan_out in pairwise(widths):
        bound = 1 / np.sqrt(fan_in)
        layers.append((rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32),
                       rng.uniform(-bound, bound, fan_out).astype(np.float32)))
    x = rng.standard_normal((batch, widths[0])).astype(np.float32)
    y = rng.integers(0, widths[-1], batch)
    return {"layers": layers, "x": x, "y": y, "lr": 0.1}


def _mlp_framework(lib, data):
    """Linear/ReLU stack, CrossEntropyLoss, SGD: zero_grad, forward, backward, step."""
    modules = []
    for weight, bias in data["layers"]:
        linear = lib.nn.Linear(weight.shape[1], weight.shape[0])
        with lib.no_grad():
            linear.weight.copy_(lib.from_numpy(weight))
            linear.bias.copy_(lib.from_numpy(bias))
        modules += [linear, lib.nn.ReLU()]
    model = lib.nn.Sequential(*modules[:-1])
    loss_fn = lib.nn.CrossEntropyLoss()
    parameters = list(model.parameters())
    optimizer = lib.optim.SGD(parameters, lr=data["lr"])
    x, y = lib.from_numpy(data["x"]), lib.from_numpy(data["y"])

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return (loss, *parameters)
    return step


def _mlp_numpy(data):
    params = [(weight.copy(), bias.copy()) for weight, bias in data["layers"]]
    x, y, lr = data["x"], data["y"], data["lr"]
    rows = np.arange(len(y))
    last = len(params) - 1

    def step():
        inputs, activations = [], x
        for i, (weight, bias) in enumerate(params):
            inputs.append(activations)
            activations = activations @ weight.T + bias
            if i < last:
                activations = np.maximum(activations, 0)
        shifted = activations - activations.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(total[:, 0]) - shifted[rows, y])
        grad = exp / total  # d loss / d logits = (softmax - one_hot) / batch
        grad[rows, y] -= 1
        grad /= len(y)
        for i in range(last, -1, -1):
            weight, bias = params[i]
            grad_weight, grad_bias = grad.T @ inputs[i], grad.sum(axis=0)
            if i > 0:
                grad = grad @ weight
                grad *= inputs[i] > 0  # ReLU: inputs[i] is the previous layer's activation
            weight -= lr * grad_weight
            bias -= lr * grad_bias
        return (loss, *(p for pair in params for p in pair))
    return step


# ------------------------------------------------------------ 5. long elementwise chain
def _chain_data(rng, n):
    return {k: rng.standard_normal(n).astype(np.float32) for k in ("x", "w", "b")}


def _chain_framework(lib, data):
    x, w, b = (lib.from_numpy(data[k]).requires_grad_() for k in ("x", "w", "b"))

    def step():
        x.grad = w.grad = b.grad = None
        f = (lib.tanh(x * w + b) * lib.sigmoid(x) + lib.exp(-x * x)).sum()
        f.backward()
        return f, x.grad, w.grad, b.grad
    return step


def _chain_numpy(data):
    x, w, b = data["x"], data["w"], data["b"]

    def step():
        t = np.tanh(x * w + b)
        s = 1 / (1 + np.exp(-x))
        e = np.exp(-x * x)
        f = np.sum(t * s + e)
        grad_b = (1 - t * t) * s  # d f / d b; the u = x*w + b branch scales it by w or x
        grad_w = grad_b * x
        grad_x = grad_b * w + t * s * (1 - s) - 2 * x * e
        return f, grad_x, grad_w, grad_b
    return step


MLP_PARTS = ("nn.Linear", "nn.ReLU", "nn.Sequential", "nn.CrossEntropyLoss", "optim.SGD")

WORKLOADS = {w.name: w for w in (
    Workload("tiny_graph", "y = x**2 + 2*x on a 0-d tensor, forward + backward",
             {"full": {}, "small": {}}, _tiny_data, _tiny_framework, _tiny_numpy,
             rtol=1e-6, atol=0),
    Workload("line_fit", "seed 002 line fit: 200 steps on 100 points, manual SGD + zero_grad",
             {"full": {"points": 100, "steps": 200}, "small": {"points": 100, "steps": 10}},
             _line_fit_data, _line_fit_framework, _line_fit_numpy, rtol=1e-4, atol=1e-5),
    Workload("mlp_small", "MLP 64-128-128-10, batch 64: ReLU, cross-entropy, SGD step",
             {"full": {"widths": (64, 128, 128, 10), "batch": 64},
              "small": {"widths": (64, 128, 128, 10), "batch": 64}},
             _mlp_data, _mlp_framework, _mlp_numpy, rtol=1e-4, atol=1e-5, requires=MLP_PARTS),
    Workload("mlp_large", "MLP 784-1024-1024-10, batch 256: ReLU, cross-entropy, SGD step",
             {"full": {"widths": (784, 1024, 1024, 10), "batch": 256},
              "small": {"widths": (196, 256, 256, 10), "batch": 32}},
             _mlp_data, _mlp_framework, _mlp_numpy, rtol=1e-4, atol=1e-5, requires=MLP_PARTS),
    Workload("elementwise_chain",
             "sum(tanh(x*w + b) * sigmoid(x) + exp(-x*x)), 1M float32, grads of x, w, b",
             {"full": {"n": 1_000_000}, "small": {"n": 10_000}},
             _chain_data, _chain_framework, _chain_numpy, rtol=1e-4, atol=1e-5),
)}
