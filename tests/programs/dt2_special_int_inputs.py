# Calling torch.special functions on integer / bool tensors pulled straight from data (counts,
# labels, masks): which promote to the default float dtype, what float64 gives, and edge values.
import torch

counts = torch.tensor([0, 1, 2, 5, 10])
labels = torch.tensor([True, False, True, True, False])
logits = torch.tensor([-3, -1, 0, 1, 3], dtype=torch.int32)

for name in ["expit", "erf", "erfc", "i0", "i0e", "i1", "i1e", "ndtr", "log_ndtr",
             "gammaln", "digamma", "sinc", "entr", "expm1", "exp2", "log1p", "round"]:
    fn = getattr(torch.special, name)
    try:
        out = fn(counts)
        print(f"{name:9s}", out.dtype, out)
    except Exception as e:
        print(f"{name:9s}", type(e).__name__, e)

print("expit int32", torch.special.expit(logits))
print("expit bool", torch.special.expit(labels))
print("erf int8", torch.special.erf(logits.to(torch.int8)).dtype)
print("erf uint8", torch.special.erf(counts.to(torch.uint8)).dtype)
print("erf f16", torch.special.erf(counts.to(torch.float16)))
print("erf f64", torch.special.erf(counts.to(torch.float64)))

# binary ones with mixed ints and floats
x = torch.tensor([0, 1, 2, 0])
y = torch.tensor([0, 3, 0, 5])
print("xlogy int,int", torch.special.xlogy(x, y))
print("xlogy int,scalar", torch.special.xlogy(x, 2))
print("xlogy scalar,int", torch.special.xlogy(2.0, y))
print("xlog1py", torch.special.xlog1py(x, y))
print("xlogy f64", torch.special.xlogy(x.double(), y).dtype)
print("zeta", torch.special.zeta(torch.tensor([2, 3, 4]), 1))
print("zeta f", torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1, 2])))

# logit with eps on probabilities from integer counts
p = counts / counts.sum()
print("p", p)
print("logit", torch.special.logit(p))
print("logit eps", torch.special.logit(p, eps=1e-6))
print("logit int", torch.special.logit(torch.tensor([0, 1])))

# polygamma / multigammaln with int input
print("polygamma1", torch.special.polygamma(1, torch.tensor([1, 2, 3])))
print("multigammaln", torch.special.multigammaln(torch.tensor([2.5, 3.5]), 2))
try:
    print(torch.special.multigammaln(torch.tensor([0.5]), 2))
except Exception as e:
    print(type(e).__name__, e)

# softmax / log_softmax on ints need dtype=
try:
    torch.special.softmax(counts, dim=0)
except Exception as e:
    print(type(e).__name__, e)
print("softmax dtype", torch.special.softmax(counts, dim=0, dtype=torch.float64))
print("log_softmax", torch.special.log_softmax(logits, 0, dtype=torch.float32))
print("logsumexp", torch.special.logsumexp(counts.float(), 0))
try:
    print("logsumexp int", torch.special.logsumexp(counts, 0))
except Exception as e:
    print(type(e).__name__, e)

# ndtri / erfinv at edges
q = torch.tensor([0.0, 0.025, 0.5, 0.975, 1.0])
print("ndtri", torch.special.ndtri(q))
print("erfinv", torch.special.erfinv(torch.tensor([-1, 0, 1])))
print("bessel_j0", torch.special.bessel_j0(torch.tensor([0, 1, 2])))
print("gammainc", torch.special.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([1, 2])))
