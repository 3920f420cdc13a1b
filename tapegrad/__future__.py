"""``torch.__future__``: opt-ins for behaviour PyTorch plans to make the default. They decide
how ``nn.Module`` conversions (``to``, ``float``, ``double``, ...) put converted parameters in
place: by default the parameter objects stay and their ``.data`` changes; with
``overwrite_module_params_on_conversion`` new ``Parameter`` objects replace them; with
``swap_module_params_on_conversion`` (which takes precedence) the objects stay, as
``torch.utils.swap_tensors`` keeps them."""

_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    """Whether module conversions assign new parameters instead of changing the existing ones."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    """Whether module conversions swap the converted tensors into the existing parameters."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
