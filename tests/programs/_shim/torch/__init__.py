"""``torch`` meaning tapegrad: with this directory first on ``PYTHONPATH``, ``import torch`` gives
``tapegrad`` and ``torch.<sub>`` (``torch.nn.functional``, ``torch.utils.data`` …) gives
``tapegrad.<sub>``, so a PyTorch program runs unchanged against tapegrad.

    PYTHONPATH=tests/programs/_shim:. python tests/programs/quickstart_optimize.py
"""
import importlib
import importlib.abc
import importlib.util
import sys

import tapegrad


class _TorchIsTapegrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``torch.<sub>`` to the module ``tapegrad.<sub>`` (imported, not copied)."""

    def find_spec(self, name, path=None, target=None):
        if name.startswith("torch."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("tapegrad" + spec.name[len("torch"):])

    def exec_module(self, module):
        pass  # already executed as tapegrad.<sub>


sys.meta_path.insert(0, _TorchIsTapegrad())
sys.modules[__name__] = tapegrad
# Submodules tapegrad has imported already are torch's too: importing one anew through the finder
# would make Python set it as its package's attribute, hiding a function of the same name
# (``from torch.autograd.gradcheck import GradcheckError`` replacing ``torch.autograd.gradcheck``).
for _name, _module in list(sys.modules.items()):
    if _name.startswith("tapegrad."):
        sys.modules.setdefault("torch" + _name[len("tapegrad"):], _module)
