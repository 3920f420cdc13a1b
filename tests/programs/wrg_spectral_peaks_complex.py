# Spectral peak picking on complex FFT output, as in audio/vibration analysis scripts: topk on
# magnitudes, gather of complex bins, per-band energy via scatter_add, and the errors users hit
# when they sort/unique/searchsorted complex tensors directly.
import torch

torch.set_printoptions(precision=4)
n = 64
t = torch.arange(n, dtype=torch.float64) / n
signal = torch.sin(2 * torch.pi * 5 * t) + 0.5 * torch.cos(2 * torch.pi * 12 * t) + 0.25 * torch.sin(2 * torch.pi * 20 * t)
spec = torch.fft.rfft(signal)
mag = spec.abs()
vals, bins = mag.topk(3)
print("peak bins", bins, "magnitudes", vals.round(decimals=4))
peaks = spec.gather(0, bins)
print("peak phases", torch.angle(peaks).round(decimals=4))
print("nonzero bins", torch.nonzero(mag > 1e-6).squeeze(1))

# band energy: bins grouped into 4 bands with bucketize, summed with scatter_add / index_add
edges = torch.tensor([4, 10, 16])
band = torch.bucketize(torch.arange(mag.numel()), edges, right=True)
energy = torch.zeros(4, dtype=torch.float64).scatter_add(0, band, mag ** 2)
print("band energy", energy.round(decimals=3))
cplx_sum = torch.zeros(4, dtype=spec.dtype).index_add(0, band, spec)
print("band complex sum", cplx_sum.abs().round(decimals=3))
mean_bin = torch.zeros(4, dtype=spec.dtype).scatter_reduce(0, band, spec, "mean", include_self=False)
print("band mean magnitude", mean_bin.abs().round(decimals=3))

# a stable log-power running sum in complex form
logspec = torch.log(spec[1:6] + 1e-3)
print(torch.logcumsumexp(logspec, dim=0).real.round(decimals=3))

# what users try first, and the errors they get
attempts = {
    "sort": lambda: spec.sort(),
    "argsort": lambda: spec.argsort(),
    "unique": lambda: torch.unique(spec.round(decimals=2)),
    "searchsorted": lambda: torch.searchsorted(spec, spec[:2]),
    "median": lambda: spec.median(),
    "kthvalue": lambda: spec.kthvalue(2),
    "cummax": lambda: spec.cummax(0),
    "amax scatter": lambda: torch.zeros(4, dtype=spec.dtype).scatter_reduce(0, band, spec, "amax"),
    "isin": lambda: torch.isin(spec, spec[:3]),
    "histc": lambda: torch.histc(spec, bins=4),
    "aminmax": lambda: torch.aminmax(spec),
}
for name, fn in attempts.items():
    try:
        fn()
        print(name, "ok")
    except (RuntimeError, NotImplementedError) as e:
        print(name, type(e).__name__, e)

# the fix: sort by magnitude and reorder the complex values
order = mag.argsort(descending=True, stable=True)
print("by magnitude", order[:3], spec[order[:3]].abs().round(decimals=3))
uniq_mag, counts = torch.unique(mag.round(decimals=3), return_counts=True)
print(uniq_mag[-3:], counts[-3:])
print(torch.bincount(band, weights=mag.round(decimals=3)))
