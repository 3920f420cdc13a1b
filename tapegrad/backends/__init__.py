"""``torch.backends``: the switches of accelerator libraries tapegrad does not use.

tapegrad runs on numpy on the CPU, so these answer "not available" and their flags are plain
attributes that code may set (``cudnn.benchmark = True``) without effect. They exist so that
device-selection and reproducibility boilerplate from PyTorch code runs unchanged.
"""
from . import cuda, cudnn, mha, mkl, mkldnn, mps, openmp

__all__ = ["cuda", "cudnn", "mha", "mkl", "mkldnn", "mps", "openmp"]
