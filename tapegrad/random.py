"""Random number generation: PyTorch's CPU generator, so a seed gives PyTorch's numbers.

Each generator is a Mersenne Twister (MT19937) seeded as PyTorch seeds its own, and the common
draws transform its 32-bit words exactly as PyTorch's CPU kernels do (see ``Generator``): after
``manual_seed(0)``, ``rand``, ``randn``, ``randint``, ``randperm``, ``uniform_``, ``normal_``
(so ``nn.Linear``'s initialization), ``bernoulli_``, dropout masks, ``multinomial`` and the
exponential, geometric, log-normal and Cauchy fills, ``poisson``, ``binomial`` and gamma samples
(so the Gamma, Chi2, StudentT, Dirichlet and Beta distributions) give PyTorch's values.
"""
import contextlib
import math

import numpy as np

from ._box_muller import box_muller_float32, box_muller_float64, fma32

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator",
           "get_rng_state", "set_rng_state", "source", "generator", "fork_rng"]


class Generator:
    """A source of random numbers, as ``torch.Generator``: ``Generator().manual_seed(0)``. A new
    generator starts from PyTorch's fixed default seed; only the default generator is seeded at
    random, when tapegrad is imported.

    The draws below follow ATen's CPU kernels (``uniform_real_distribution``,
    ``normal_distribution``, ``normal_fill``, ``uniform_int_from_to_distribution``, ``randperm``):
    which words each element takes (one 32-bit word for float32, two for float64), how they
    become numbers, and in which order."""

    def __init__(self, device="cpu"):
        from .tensor import device as _device
        self.device = _device(device)
        if self.device.type == "cuda":
            raise RuntimeError(_NO_CUDA_GENERATOR)
        if self.device.type != "cpu":
            raise RuntimeError(f"tapegrad has no {self.device.type} generator: it runs on the "
                               "CPU only")
        self._start(_DEFAULT_SEED)

    def _start(self, seed, key=None, position=624, next_normal=None):
        self._seed = seed
        self._engine = np.random.MT19937(0)
        self._engine.state = {"bit_generator": "MT19937", "state": {
            "key": _mt19937_key(seed) if key is None else key, "pos": position}}
        self.rng = np.random.Generator(self._engine)  # numpy's samplers, on the same stream
        self._next_normal = next_normal  # the second normal of PyTorch's last Box-Muller pair

    def manual_seed(self, seed):
        """Seed with an integer in [-2**63, 2**64); a negative seed is read as its unsigned
        64-bit pattern, as PyTorch reads it (-1 is 2**64 - 1)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        _note_state_change()
        self._start(seed & _MASK)
        return self

    def seed(self):
        return self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The generator's state as a 1-d uint8 tensor, as PyTorch gives it (tapegrad's own
        layout: the twister's words and position, the seed and the pending normal)."""
        from .tensor import Tensor
        state = self._engine.state["state"]
        pending = self._next_normal
        header = np.array([state["pos"], self._seed, pending is not None,
                           np.float64(pending or 0.0).view(np.uint64)], dtype=np.uint64)
        words = np.concatenate([header, state["key"].astype(np.uint64)])
        return Tensor._make(words.view(np.uint8))

    def set_state(self, new_state):
        """Restore a state ``get_state`` gave."""
        from .tensor import Tensor
        if not isinstance(new_state, Tensor) or new_state._array.dtype != np.uint8:
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._array.size != _STATE_BYTES:
            raise RuntimeError(f"Expected either a PhiloxCudaState or a state of {_STATE_BYTES} "
                               f"bytes, but got {new_state._array.size} bytes")
        _note_state_change()
        words = np.ascontiguousarray(new_state._array).view(np.uint64)
        position, seed, has_normal, normal_bits = (int(w) for w in words[:4])
        pending = float(np.uint64(normal_bits).view(np.float64)) if has_normal else None
        self._start(seed, words[4:].astype(np.uint32), position, pending)
        return self

    # -- PyTorch's draws ------------------------------------------------------------------------
    def _words(self, count):
        """The next ``count`` 32-bit words (``random()``), as uint64."""
        return self._engine.random_raw(count)

    def _words64(self, count):
        """The next ``count`` 64-bit words (``random64()``: two words, the first the high half)."""
        words = self._engine.random_raw(2 * count)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    def _unit(self, count, dtype):
        """``count`` uniforms in [0, 1) as ``uniform_real_distribution`` makes them: 53 bits of a
        64-bit word for float64; else the low 24 bits of a word, as float32 (float16 is drawn
        in float32, as PyTorch's kernels compute it)."""
        if dtype == np.float64:
            return (self._words64(count) & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53
        return (self._words(count) & np.uint64(2 ** 24 - 1)).astype(np.float32) * \
            np.float32(2.0 ** -24)

    def _unit_array(self, shape):
        """Float64 uniforms in [0, 1) shaped ``shape``, as the float64 draws below take them."""
        return self._unit(math.prod(shape), np.float64).reshape(shape)

    def uniform(self, shape, dtype, low=0.0, high=1.0):
        """``uniform_(low, high)`` of a new array: ``low + u * (high - low)``, fused in float32
        (PyTorch's kernels are compiled with fused multiply-adds)."""
        dtype = np.dtype(dtype)
        unit = self._unit(math.prod(shape), dtype).reshape(shape)
        if dtype == np.float64:
            return unit * (float(high) - float(low)) + float(low)
        return fma32(unit, np.float32(high) - np.float32(low), np.float32(low)).astype(dtype)

    def uniform_float64(self, count, low, high):
        """``count`` draws of ``uniform_real_distribution<double>(low, high)``, one at a time
        as ATen's element-wise kernels make them: ``low + u * (high - low)`` in float64."""
        return self._unit(count, np.float64) * (float(high) - float(low)) + float(low)

    def normal(self, shape, dtype, mean=0.0, std=1.0, contiguous=True):
        """``normal_(mean, std)`` of a new array: 16 or more contiguous values by blocks of 16
        (``normal_fill``), fewer one by one from pairs of float64 uniforms
        (``normal_distribution``: the pair's second value is kept for the next draw, of any
        tensor)."""
        dtype = np.dtype(dtype)
        count = math.prod(shape)
        if count >= 16 and contiguous:
            values = self._normal_blocks(count, dtype)
            if dtype == np.float64:
                return (values * float(std) + float(mean)).reshape(shape)
            return fma32(values, np.float32(std), np.float32(mean)).astype(dtype).reshape(shape)
        return (self._normal_pairs(count) * float(std) + float(mean)).astype(dtype).reshape(shape)

    def _normal_blocks(self, count, dtype):
        """``normal_fill``: every value a uniform, each full block of 16 transformed; a partial
        last block is drawn afresh as the last 16 values. float16 works in float32 and draws
        block by block (so it draws no uniforms for the partial block's first values)."""
        work = np.float64 if dtype == np.float64 else np.float32
        transform = box_muller_float64 if work == np.float64 else box_muller_float32
        full, rest = divmod(count, 16)
        if dtype == np.float16:
            values = transform(self._unit(16 * full, work).reshape(full, 16)).reshape(-1)
            values = np.concatenate([values, np.empty(rest, work)])
        else:
            values = self._unit(count, work)
            values[:16 * full] = transform(values[:16 * full].reshape(full, 16)).reshape(-1)
        if rest:
            values[-16:] = transform(self._unit(16, work).reshape(1, 16))
        return values

    def _normal_pairs(self, count):
        """``count`` standard normals, float64, one at a time as ``normal_distribution<double>``
        gives them: Box-Muller on two uniforms gives r cos(theta) now and r sin(theta) later."""
        values = np.empty(count)
        done = 0
        if count and self._next_normal is not None:
            values[0], self._next_normal, done = self._next_normal, None, 1
        pairs = -(-(count - done) // 2)
        if pairs:
            u = self._unit(2 * pairs, np.float64).reshape(pairs, 2)
            radius = np.sqrt(-2.0 * np.log1p(-u[:, 1]))
            theta = 2.0 * np.pi * u[:, 0]
            both = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1).reshape(-1)
            values[done:] = both[:count - done]
            if (count - done) % 2:
                self._next_normal = float(both[-1])
        return values

    def integers(self, shape, low, high):
        """Integers in [low, high), as int64: a word modulo the range plus ``low``; 64-bit words
        for a range of 2**32 or more."""
        span = high - low
        words = (self._words64 if span >= 2 ** 32 else self._words)(math.prod(shape))
        return ((words % np.uint64(span)).astype(np.int64) + low).reshape(shape)

    def permutation(self, n):
        """``randperm(n)``: Fisher-Yates from the front, swapping element i with element
        i + (word % (n - i))."""
        order = list(range(n))  # (a list: swapping numpy elements one by one is slower)
        offsets = (self._words(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        for i, offset in enumerate(offsets):
            j = i + offset
            order[i], order[j] = order[j], order[i]
        return np.array(order, dtype=np.int64)

    def exponential(self, shape, lambd=1.0):
        """``exponential_(lambd)``: ``-log1p(-u) / lambd`` of float64 uniforms, in float64."""
        return (-1.0 / lambd) * np.log1p(-self._unit_array(shape))

    def geometric(self, shape, p):
        """``geometric_(p)``: trials to the first success, ``ceil(log(u) / log1p(-p))``."""
        return np.ceil(np.log(self._unit_array(shape)) / np.log1p(-p))

    def log_normal(self, shape, mean, std):
        """``log_normal_(mean, std)``: ``exp`` of normals drawn one at a time (never by blocks)."""
        return np.exp(self._normal_pairs(math.prod(shape)) * std + mean).reshape(shape)

    def cauchy(self, shape, median, sigma):
        """``cauchy_(median, sigma)``: ``median + sigma * tan(pi * (u - 1/2))``."""
        return median + sigma * np.tan(np.pi * (self._unit_array(shape) - 0.5))

    def poisson(self, rates):
        """``poisson(rates)``: one count per rate, in order, as ATen's ``sample_poisson`` draws
        it: Hoermann's transformed rejection for rates of 10 or more, a product of uniforms
        below. A count beyond int64 (an infinite rate) is int64's minimum, as the kernel's."""
        uniform = self._next_uniform
        return np.array([_poisson_count(rate, uniform) for rate in
                         np.ravel(rates).tolist()], dtype=np.float64).reshape(np.shape(rates))

    def _next_uniform(self):
        return float(self._unit(1, np.float64)[0])

    def _next_normal_value(self):
        return float(self._normal_pairs(1)[0])

    def binomial(self, counts, probs, dtype):
        """``binomial(counts, probs)`` (broadcast together): one count of successes per pair, in
        order, as ATen's ``sample_binomial`` draws it from float64 uniforms: Hoermann's BTRS
        rejection when the mean (of the rarer outcome) is 10 or more, else by inversion, with
        the counts and probabilities in the tensor's type."""
        scalar = np.float32 if np.dtype(dtype) != np.float64 else float
        counts, probs = np.broadcast_arrays(counts, probs)
        uniform = self._next_uniform
        return np.array([_binomial_count(scalar(n), scalar(p), uniform) for n, p in
                         zip(np.ravel(counts).tolist(), np.ravel(probs).tolist())],
                        dtype=np.float64).reshape(counts.shape)

    def dirichlet(self, concentrations):
        """``_sample_dirichlet``: gamma samples of the concentrations taken as float64 (no
        smaller than its smallest normal number), each over the sum of its last dimension,
        in float64 (the caller casts and clamps)."""
        gammas = np.maximum(self.standard_gamma(concentrations, np.float64),
                            np.finfo(np.float64).tiny)
        return gammas / gammas.sum(-1, keepdims=True)

    def standard_gamma(self, concentrations, dtype):
        """``_standard_gamma``: one Gamma(alpha, 1) sample per concentration, in order, as
        ATen's ``sample_gamma`` draws it (float64, before clamping): Marsaglia and Tsang's
        rejection from float64 normals and uniforms, with ``alpha`` and its constants in the
        tensor's type (float32 arithmetic for a float32 tensor)."""
        scalar = np.float32 if np.dtype(dtype) != np.float64 else float
        uniform, normal = self._next_uniform, self._next_normal_value
        return np.array([_gamma_sample(scalar(alpha), uniform, normal) for alpha in
                         np.ravel(concentrations).tolist()],
                        dtype=np.float64).reshape(np.shape(concentrations))

    def bernoulli(self, shape, p):
        """``bernoulli_(p)``: whether a float64 uniform is below ``p`` (bool)."""
        return self._unit_array(shape) < p


_INT64_MIN = -2 ** 63


def _poisson_count(rate, uniform):
    """One Poisson count (``sample_poisson``), drawing float64 uniforms from ``uniform()``."""
    if rate >= 10:
        root, log_rate = math.sqrt(rate), math.log(rate)
        b = 0.931 + 2.53 * root
        a = -0.059 + 0.02483 * b
        log_inverse_alpha = math.log(1.1239 + 1.1328 / (b - 3.4))
        v_r = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = uniform() - 0.5
            v = uniform()
            u_s = 0.5 - abs(u)
            count = _int64((2 * a / u_s + b) * u + rate + 0.43)
            if u_s >= 0.07 and v <= v_r:
                return count
            if count < 0 or (u_s < 0.013 and v > u_s):
                continue
            if (math.log(v) + log_inverse_alpha - math.log(a / (u_s * u_s) + b)
                    <= -rate + count * log_rate - math.lgamma(count + 1)):
                return count
    if rate == 0:
        return 0
    threshold, count, product = math.exp(-rate), 0, 1.0
    while True:
        product *= uniform()
        if product <= threshold:
            return count
        count += 1


def _binomial_count(count, prob, uniform):
    """One binomial count (``sample_binomial``): ``count`` and ``prob`` in the kernel's
    ``scalar_t`` (a float32 or a Python float), float64 uniforms from ``uniform()``. A NaN
    probability gives NaN; an infinite count, what the kernel's arithmetic makes of it."""
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    if prob <= 0.5:
        return float(_binomial_rarer(count, prob, uniform))
    if prob > 0.5:  # the failures, counted as the rarer outcome
        failure = type(prob)(1.0 - float(prob))
        return float(count) - float(_binomial_rarer(count, failure, uniform))
    return math.nan


def _binomial_rarer(count, prob, uniform):
    """A binomial count for ``prob`` <= 1/2: BTRS for a mean of 10 or more, else inversion."""
    scalar = type(prob)
    if count * prob < 10:  # inversion: geometric waiting times until they pass ``count``
        log_failure = float(np.log1p(-prob))
        waited, successes = 0.0, scalar(0)
        while True:
            waited += _c_ceil(_c_log(uniform()) / log_failure)
            if waited > count:
                return successes
            successes = successes + scalar(1)
    # Hoermann's transformed rejection with squeeze (BTRS), as ATen writes it
    spread = float(np.sqrt(count * prob * (scalar(1) - prob)))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (scalar(1) - prob))
    alpha = (2.83 + 5.1 / b) * spread
    m = float(np.floor((count + scalar(1)) * prob))
    n = float(count)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = float(scalar(_c_floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        bound = ((m + 0.5) * _c_log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * _c_log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * _c_log(r * (n - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if _c_log(v * alpha / (a / (us * us) + b)) <= bound:
            return k


# log(k!) minus Stirling's approximation of it, for k = 0 ... 9 (ATen's table)
_STIRLING_TAILS = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                   0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                   0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                   0.00833056343336287)


def _stirling_tail(k):
    if k <= 9:
        return _STIRLING_TAILS[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


def _c_log(value):
    """C's ``log``: -inf at zero and NaN below it, where ``math.log`` raises."""
    return math.log(value) if value > 0 else -math.inf if value == 0 else math.nan


def _c_floor(value):
    return math.floor(value) if math.isfinite(value) else value


def _c_ceil(value):
    return math.ceil(value) if math.isfinite(value) else value


_ONE_THIRD = np.float32(1.0) / np.float32(3.0)  # ATen's ``1.0f / 3.0f``


def _gamma_sample(alpha, uniform, normal):
    """One Gamma(alpha, 1) sample (``sample_gamma``). ``alpha`` is a float32 or a Python float,
    as the kernel's ``scalar_t``; the rest is float64 (ATen's ``accscalar_t``)."""
    scale = 1.0
    if alpha < 1.0:  # boosted for a higher acceptance rate
        if alpha == 0:
            return 0.0
        scale = math.pow(1 - uniform(), float(1 / alpha))
        alpha = alpha + type(alpha)(1.0)
    d = float(alpha - (_ONE_THIRD if type(alpha) is np.float32 else float(_ONE_THIRD)))
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = normal()
        y = 1.0 + c * x
        if y <= 0:
            continue
        v = y * y * y
        u = 1 - uniform()
        xx = x * x
        if u < 1.0 - _SQUEEZE * xx * xx or math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


_SQUEEZE = float(np.float32(0.0331))  # ATen's ``0.0331f``


def _int64(value):
    """C's cast of a double's floor to int64 on x86: out of range (infinity too) gives the
    smallest int64."""
    value = math.floor(value) if math.isfinite(value) else _INT64_MIN
    return value if _INT64_MIN <= value < -_INT64_MIN else _INT64_MIN


def _mt19937_key(seed):
    """The twister's 624 words for ``seed`` (its low 32 bits), as PyTorch's ``mt19937`` and the
    reference implementation's ``init_genrand`` compute them."""
    key = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        previous = key[-1]
        key.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


# What a CPU build of PyTorch says when asked for a CUDA generator.
_NO_CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are "
    "trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has "
    "occurred by using ldd on your binary to see if there is a dependency on *_cuda.so library.")
_MASK = 2 ** 64 - 1
# The seed of a new ``torch.Generator`` (PyTorch's ``default_rng_seed_val``).
_DEFAULT_SEED = 67280421310721
_STATE_BYTES = (4 + 624) * 8


# Random draws and reseeds so far, from any generator. The compiler's tracer compares the count
# before and after a trace: the draws ``drawn`` reports to ``draw_observer`` become inputs of the
# compiled graph, drawn anew on each call; any other event is a graph break (a compiled graph
# would repeat the same "random" values, or skip the reseed, on every call).
draws = 0
draw_observer = None
# Called before every draw when set: ``torch.func.vmap(randomness="error")`` refuses draws.
draw_guard = None


def source(gen=None):
    """``gen``, or the default generator, for one draw (PyTorch's draws are its methods)."""
    global draws
    if gen is not None and not isinstance(gen, Generator):
        raise TypeError(f"expected a torch.Generator as generator, but got {type(gen).__name__}")
    if draw_guard is not None:
        draw_guard()
    draws += 1
    return gen or default_generator


def generator(gen=None):
    """numpy's samplers on the stream of ``gen`` (or of the default generator), for one draw of
    a distribution tapegrad does not draw as PyTorch does."""
    return source(gen).rng


def drawn(recipe):
    """``recipe()``: a fresh array of random numbers from tapegrad's generators, made so that a
    compiled call can draw it again. While the compiler traces, ``recipe`` is recorded as an input
    of the graph, and each compiled call runs it before its kernel: the numbers eager mode would
    have drawn, in the same order."""
    before = draws
    array = recipe()
    if draw_observer is not None:
        draw_observer(recipe, array, draws - before)
    return array


def _note_state_change():
    global draws
    draws += 1


default_generator = Generator()
default_generator.seed()


def manual_seed(seed):
    """Seed the default generator; ``seed`` goes through ``int()`` first, as in PyTorch (so
    1.5 seeds 1)."""
    return default_generator.manual_seed(int(seed))


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor, as PyTorch gives it (tapegrad's own
    bytes: see ``Generator.get_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices",
             device_type=None):
    """Restore the default generator's state on leaving the block (the CPU's is the only one
    tapegrad has; ``devices`` and ``device_type`` are accepted for PyTorch's signature)."""
    if not enabled:
        yield
        return
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)
