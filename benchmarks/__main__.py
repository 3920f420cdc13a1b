"""``python -m benchmarks``: the whole suite, see ``benchmarks/run.py``."""
from .run import main

raise SystemExit(main())
