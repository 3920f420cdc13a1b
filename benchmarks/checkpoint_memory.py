"""Peak memory of one training step of a deep MLP, with and without gradient checkpointing.

    python benchmarks/checkpoint_memory.py [--layers 32 --width 256 --batch 2048]

tracemalloc sees numpy's allocations, so the peak it reports during forward + backward is the
memory the step needed on top of what existed before it (model, gradients from a warm-up step,
data). Plain eager keeps every layer's saved tensors alive until backward reaches them;
checkpointing keeps only each segment's input and recomputes the segment during backward, so
the peak is about (segments + layers per segment) activations instead of (layers).

Also a suite of ``python -m benchmarks``: ``run()`` returns one row per variant.
"""
import argparse
import sys
import tracemalloc
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tapegrad
from tapegrad import nn
from tapegrad.utils.checkpoint import checkpoint_sequential

MiB = 2 ** 20


def _model(layers, width):
    tapegrad.manual_seed(0)
    return nn.Sequential(*[nn.Sequential(nn.Linear(width, width), nn.Tanh())
                           for _ in range(layers)])


def _plain(model, x):
    return model(x)


def _segments(count):
    """Checkpoint ``count`` segments: about sqrt(layers) of them minimises the peak."""
    def forward(model, x):
        return checkpoint_sequential(model, count, x, use_reentrant=True)
    return forward


def peak_step_memory(forward, layers, width, batch):
    """Bytes allocated at the peak of one forward + backward, above the level before it."""
    model = _model(layers, width)
    x = tapegrad.randn(batch, width, requires_grad=True)
    forward(model, x).square().mean().backward()  # warm-up: the .grad buffers now exist
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        forward(model, x).square().mean().backward()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def run(quick=False, layers=32, width=256, batch=2048):
    """One row per variant: peak MiB of a training step and the ratio to plain eager."""
    if quick:
        batch //= 4
    root = round(layers ** 0.5)
    variants = {"plain eager": _plain}
    for count in sorted({max(2, root // 2), root, min(layers, root * 2)}):
        variants[f"checkpoint_sequential({count} segments)"] = _segments(count)
    peaks = {name: peak_step_memory(forward, layers, width, batch)
             for name, forward in variants.items()}
    plain = peaks["plain eager"]
    return [{"workload": f"mlp{layers}x{width}_batch{batch}_peak_memory", "impl": name,
             "peak_MiB": round(peak / MiB, 1), "ratio_to_plain": round(peak / plain, 3)}
            for name, peak in peaks.items()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--batch", type=int, default=2048)
    args = parser.parse_args(argv)
    rows = run(layers=args.layers, width=args.width, batch=args.batch)
    print(f"peak memory of one training step (forward + backward), {rows[0]['workload']}")
    for row in rows:
        print(f"  {row['impl']:<40} {row['peak_MiB']:>8.1f} MiB   "
              f"{row['ratio_to_plain']:.2f}x plain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
