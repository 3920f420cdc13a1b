"""Shared pytest configuration."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "notebook: executes a notebook under notebooks/ (slow; deselect with -m 'not notebook')")
