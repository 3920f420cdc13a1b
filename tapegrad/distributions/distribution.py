"""``Distribution``: batch and event shapes, argument and sample validation, and the sampling
interface shared by every distribution."""
import warnings

from ..autograd import grad_mode
from ..tensor import Size, Tensor
from . import constraints
from .utils import format_value, lazy_property

__all__ = ["Distribution"]

_PACKAGE_PREFIX = __name__.rpartition(".")[0] + "."


class Distribution:
    _abstract = True  # read from a class's own __dict__: ``expand`` is left to subclasses
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._validate_parameters()

    def _validate_parameters(self):
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:  # a user's subclass that names no constraints: warn
            arg_constraints = {}
            warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                          "`arg_constraints = {}` or initialize the distribution with "
                          "`validate_args=False` to turn off validation.", stacklevel=3)
        for name, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if name not in self.__dict__ and isinstance(getattr(type(self), name), lazy_property):
                continue  # not computed yet: it follows from a checked parameter
            value = getattr(self, name)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {name} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                    f"{constraint!r}, but found invalid values:\n{format_value(value)}")

    # -- shapes -----------------------------------------------------------------------------------
    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def expand(self, batch_shape, _instance=None):
        """This distribution with its batch dimensions expanded to ``batch_shape`` (parameters
        become expanded views: no memory is copied). As in PyTorch, where each distribution
        defines its own ``expand``, a user's subclass with its own ``__init__`` must define it."""
        owner = self._library_class()
        if owner.__dict__.get("_abstract", False):
            raise NotImplementedError
        new = self._get_checked_instance(owner, _instance)
        batch_shape = Size(batch_shape)
        new.__dict__.update({name: value for name, value in self.__dict__.items()
                             if not isinstance(getattr(type(self), name, None), lazy_property)})
        for name in self._expand_names():
            value = self.__dict__[name]
            if isinstance(value, Distribution):
                new.__dict__[name] = value.expand(batch_shape)
            else:
                event = tuple(value.shape[len(self._batch_shape):])
                new.__dict__[name] = value.expand(tuple(batch_shape) + event)
        new._batch_shape = batch_shape
        return new

    def _expand_names(self):
        """What ``expand`` broadcasts to the new batch shape: the parameters given (named by
        this class's or a base class's ``arg_constraints``), and component distributions of the
        same batch shape."""
        names = dict.fromkeys(self.arg_constraints)
        for klass in type(self).__mro__:
            inherited = klass.__dict__.get("arg_constraints")
            if isinstance(inherited, dict):
                names.update(dict.fromkeys(inherited))
        names["_param"] = None
        return [name for name in names if name in self.__dict__] + [
            name for name, value in self.__dict__.items()
            if isinstance(value, Distribution) and value._batch_shape == self._batch_shape]

    @classmethod
    def _library_class(cls):
        """The nearest class of this library among ``cls`` and its bases: the one whose
        ``expand`` a user's subclass inherits."""
        return next(klass for klass in cls.__mro__ if klass.__module__.startswith(_PACKAGE_PREFIX))

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {type(self).__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def _extended_shape(self, sample_shape=()):
        return Size(tuple(sample_shape) + self._batch_shape + self._event_shape)

    # -- interface --------------------------------------------------------------------------------
    @property
    def arg_constraints(self):
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{type(self)} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=()):
        """A sample that is not differentiable (``rsample`` under ``no_grad`` by default)."""
        with grad_mode.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        """A reparameterized sample: differentiable with respect to the parameters."""
        raise NotImplementedError

    def sample_n(self, n):
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def perplexity(self):
        return self.entropy().exp()

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    # -- validation -------------------------------------------------------------------------------
    def _validate_sample(self, value):
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual, expected = value.size(), Size(self._batch_shape + self._event_shape)
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual} vs {expected}.")
        try:
            support = self.support
        except NotImplementedError:  # a user's subclass without a support: nothing to check
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          "validation. Please initialize the distribution with "
                          "`validate_args=False` to turn off validation.", stacklevel=2)
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape "
                             f"{tuple(value.shape)}) to be within the support ({support!r}) of "
                             f"the distribution {self!r}, but found invalid values:\n"
                             f"{format_value(value)}")

    def __repr__(self):
        names = [name for name in self.arg_constraints if name in self.__dict__]
        arguments = ", ".join(f"{name}: {format_value(self.__dict__[name])}"
                              if self.__dict__[name].numel() == 1
                              else f"{name}: {self.__dict__[name].size()}" for name in names)
        return f"{type(self).__name__}({arguments})"

