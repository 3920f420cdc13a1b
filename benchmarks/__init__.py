"""tapegrad's benchmark suite: eager workloads, timed against hand-written numpy and PyTorch.

Run it with ``python -m benchmarks`` (or ``python benchmarks/run.py``); see
``benchmarks/README.md``.
Benchmarks report speed; the tests check correctness (``--check`` only verifies that every
implementation of a workload computes the same numbers).
"""
