"""``nn.utils.convert_conv2d_weight_memory_format`` and its 3-d twin: give the weights of every
convolution in a model a memory format (channels-last, say), keeping the Parameter objects."""
from ..modules.conv import Conv2d, Conv3d, ConvTranspose2d, ConvTranspose3d

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def convert_conv2d_weight_memory_format(module, memory_format):
    """``module`` with the weights of its ``Conv2d`` / ``ConvTranspose2d`` layers (itself
    included) laid out in ``memory_format``; other layers are left alone."""
    return _convert_weights(module, (Conv2d, ConvTranspose2d), memory_format)


def convert_conv3d_weight_memory_format(module, memory_format):
    """As ``convert_conv2d_weight_memory_format``, for ``Conv3d`` / ``ConvTranspose3d``."""
    return _convert_weights(module, (Conv3d, ConvTranspose3d), memory_format)


def _convert_weights(module, kinds, memory_format):
    for layer in module.modules():
        if isinstance(layer, kinds):
            layer.weight.data = layer.weight.detach().clone(memory_format=memory_format)
    return module
