"""Helpers of ``utils.data``'s DataLoader: collation, fetching, worker information."""
from . import collate, fetch, worker

__all__ = ["collate", "fetch", "worker"]
