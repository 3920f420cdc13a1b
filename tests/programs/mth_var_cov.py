# Sample vs population statistics (the "unbiased=True is deprecated, use correction=" SO answer):
# var/std/var_mean with correction, cov with fweights/aweights, corrcoef of feature rows.
import torch

torch.set_printoptions(precision=5)

x = torch.tensor([[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0],
                  [1.0, 3.0, 2.0, 5.0, 4.0, 6.0, 8.0, 7.0]])
print("var default", x.var(dim=1))
print("var correction=0", x.var(dim=1, correction=0))
print("var correction=2", torch.var(x, dim=1, correction=2))
print("std unbiased=False", x.std(dim=1, unbiased=False))
print("std correction=0", torch.std(x, 1, correction=0))
print("std all", x.std(), "var all", x.var(correction=0))
print("var keepdim", x.var(dim=1, keepdim=True).shape)
print("var dims tuple", x.var(dim=(0, 1)))
v, m = torch.var_mean(x, dim=1, correction=0)
print("var_mean", v, m)
s, m = torch.std_mean(x, dim=0)
print("std_mean dim0", s, m)
print("var of one element", torch.tensor([3.0]).var())
print("var of one element corr=0", torch.tensor([3.0]).var(correction=0))
print("correction larger than n", torch.tensor([1.0, 2.0]).var(correction=5))
try:
    torch.arange(5).var()
except Exception as e:
    print(type(e).__name__, e)
print("float correction", x.var(dim=1, correction=0.5))
print("float64", x.double().std(dim=1))

print("cov", torch.cov(x))
print("cov correction=0", torch.cov(x, correction=0))
fw = torch.tensor([1, 2, 1, 1, 3, 1, 1, 2])
aw = torch.linspace(0.5, 2.0, 8)
print("cov fweights", torch.cov(x, fweights=fw))
print("cov aweights", torch.cov(x, aweights=aw))
print("cov both", torch.cov(x, fweights=fw, aweights=aw))
print("cov 1-D", torch.cov(x[0]))
print("cov int input", torch.cov(torch.tensor([[1, 2, 3], [3, 1, 2]])))
try:
    torch.cov(x, fweights=fw.float())
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.cov(x, fweights=-fw)
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.cov(torch.ones(2, 2, 2))
except Exception as e:
    print(type(e).__name__, e)
print("corrcoef", torch.corrcoef(x))
three = torch.stack([x[0], x[1], -x[0] + 0.1 * x[1]])
print("corrcoef 3 vars", torch.corrcoef(three))
print("corrcoef constant row", torch.corrcoef(torch.stack([x[0], torch.ones(8)])))
print("Tensor.cov", x.cov(correction=0).diagonal())
print("matches var", x.var(dim=1, correction=0))

# standardize features (z-score) as in preprocessing code
data = torch.stack([torch.linspace(0, 10, 6), torch.linspace(5, 5.5, 6) ** 2], dim=1)
mu, sd = data.mean(0), data.std(0)
z = (data - mu) / sd
print("z", z)
print("z stats", z.mean(0).abs().max() < 1e-6, z.std(0).round(decimals=4))
