"""tapegrad: PyTorch-style automatic differentiation on numpy, eager or compiled.

Use it as ``import tapegrad as torch``: tensors record a dynamic tape exactly as PyTorch autograd
does. ``tapegrad.compile`` traces a function into a static graph and compiles it with Numba.
"""
from . import dtypes
from .dtypes import (bool, can_cast, double, dtype, finfo, float, float16, float32, float64,
                     get_default_dtype, half, iinfo, int, int8, int16, int32, int64, long,
                     promote_types, result_type, set_default_dtype, short, uint8, uint16, uint32,
                     uint64, bfloat16, cdouble, cfloat, chalf, complex32, complex64,
                     complex128)
from .tensor import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor,
                     IntTensor, LongTensor, ShortTensor, Size, Tensor, device)
from ._printing import set_printoptions
from . import _printing as _tensor_str  # noqa: F401  torch._tensor_str: printoptions, …
from .memory_format import (channels_last, channels_last_3d, contiguous_format, memory_format,
                            preserve_format)
from .ops import *  # noqa: F401,F403  the operations, as torch.add, torch.exp, …
from .ops.out import *  # noqa: F401,F403  those PyTorch gives out=, with it
from .ops import PRIMITIVES, return_types
from .ops.shape import narrow_copy, split_with_sizes
from .random import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,
                     seed, set_rng_state)
from . import autograd, backends, cuda, linalg, special
from .autograd import (enable_grad, inference_mode, is_anomaly_check_nan_enabled,
                       is_anomaly_enabled, is_grad_enabled, is_inference_mode_enabled, no_grad,
                       set_grad_enabled)
from . import nn, optim, utils
from . import func  # noqa: E402  torch.func transforms; vmap is also torch.vmap
from .func import vmap  # noqa: E402
from .serialization import load, save
from ._buffer import frombuffer
from ._default_type import set_default_tensor_type
from ._foreach import *  # noqa: F401,F403  torch._foreach_add_ …
from .nn.functional import cosine_similarity, pairwise_distance
from .nn.utils.weight_norm import _weight_norm  # noqa: E402,F401
from ._functional_aliases import *  # noqa: F401,F403  torch.conv2d, torch.layer_norm, …
from ._runtime import *  # noqa: F401,F403  set_num_threads, use_deterministic_algorithms, …
from ._layout import layout, sparse_coo, sparse_csr, strided
from . import sparse  # noqa: E402  torch.sparse; sparse COO tensors
from .sparse import sparse_coo_tensor, sparse_csr_tensor, spmm  # noqa: E402
from ._lowrank import pca_lowrank, svd_lowrank  # noqa: E402
from ._lobpcg import lobpcg  # noqa: E402
mm, matmul = sparse.sparse_aware(mm, "mm"), sparse.sparse_aware(matmul, "matmul")  # noqa: F405
sparse.route_sparse_calls(globals())  # torch.sqrt(sparse) … run the sparse tensor's method
cat = sparse.sequence_aware(cat, sparse.sparse_cat)  # noqa: F405
stack = sparse.sequence_aware(stack, sparse.sparse_stack)  # noqa: F405
from . import distributions, quasirandom, testing, viz
from . import signal  # noqa: E402  torch.signal.windows
from . import fft  # noqa: E402  torch.fft
from . import jit  # noqa: E402  torch.jit's decorators (no TorchScript)
from .compile import compile  # noqa: E402,A001  (shadows the builtin here only)
from . import _dynamo, compiler  # noqa: E402
from . import library  # noqa: E402  torch.library.custom_op
from . import accelerator, amp, cpu, distributed, multiprocessing, profiler, version  # noqa: E402
from .autograd import forward_ad as _forward_ad  # noqa: E402,F401  torch.autograd.forward_ad
from .autograd import profiler as _autograd_profiler  # noqa: E402,F401  torch.autograd.profiler
from .amp.autocast_mode import (autocast, get_autocast_cpu_dtype, get_autocast_dtype,  # noqa: E402
                                is_autocast_cache_enabled, is_autocast_cpu_enabled,
                                is_autocast_enabled, set_autocast_cache_enabled,
                                set_autocast_dtype)

from .version import __version__  # noqa: E402
from ._control_flow import cond, while_loop  # noqa: E402
from .utils.dlpack import from_dlpack  # noqa: E402
from ._aten_functions import *  # noqa: E402,F401,F403  native_layer_norm, lstm_cell, …
from ._symbolic import *  # noqa: E402,F401,F403  sym_int, sym_max, …

# PyTorch's constants (``torch.pi`` …); ``newaxis`` is None, for indexing as in numpy.
from math import e, inf, nan, pi  # noqa: E402
newaxis = None


def is_tensor(obj):
    return isinstance(obj, Tensor)


def _assert(condition, message):
    """``torch._assert``: Python's assert, spelled so that tracers can see it."""
    if not condition:
        raise AssertionError(message)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def numel(input):
    return input.numel()


def detach(input):
    return input.detach()


def detach_(input):
    return input.detach_()


def resize_as_(input, the_template, *, memory_format=None):
    return input.resize_as_(the_template, memory_format=memory_format)
