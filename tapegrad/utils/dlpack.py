"""``torch.utils.dlpack``: tensors shared without a copy with any library that speaks DLPack
(numpy, JAX, CuPy on the CPU ...)."""

import enum

import numpy as np

from ..tensor import Tensor

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


class _Capsule:
    """A bare DLPack capsule dressed as an exporter (``np.from_dlpack`` wants one)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)


def to_dlpack(tensor):
    """A DLPack capsule of ``tensor``'s memory (consumed once, by ``from_dlpack``)."""
    return tensor.__dlpack__()


def from_dlpack(ext_tensor):
    """A tensor on the memory of ``ext_tensor`` (an object with ``__dlpack__``, or a capsule):
    writes through one are seen through the other."""
    source = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    return Tensor._make(np.from_dlpack(source))
