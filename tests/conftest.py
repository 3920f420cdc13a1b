"""Shared pytest configuration."""
import os

from hypothesis import settings

# HYPOTHESIS_PROFILE=ci (set by .ci/run): property tests draw the same examples on every run, so
# whether a change lands never depends on what a random search happens to find that day. Run
# without it (the default) to keep exploring new examples.
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "notebook: executes a notebook under notebooks/ (slow; deselect with -m 'not notebook')")
