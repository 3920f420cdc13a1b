"""Autograd: graph nodes, the backward engine, grad modes, custom Functions, grad(), gradcheck."""
from . import grad_mode
from .anomaly_mode import (detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled,
                           set_detect_anomaly)
from .engine import backward, grad
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        is_multithreading_enabled, no_grad, set_grad_enabled,
                        set_multithreading_enabled)
from .graph import AccumulateGrad, Node
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from . import functional
from ..tensor import Variable

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "Node", "AccumulateGrad", "grad_mode",
           "Function", "FunctionCtx", "once_differentiable", "gradcheck", "gradgradcheck",
           "GradcheckError", "functional", "Variable", "detect_anomaly", "set_detect_anomaly",
           "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_multithreading_enabled",
           "is_multithreading_enabled"]
