# Reliability diagram data with torch.histogram (bin edges + counts, weights, density),
# confidence/accuracy correlation with torch.corrcoef / torch.cov, and a printed table.
import torch

n = 32
t = torch.arange(n, dtype=torch.float64)
conf = 0.5 + 0.45 * torch.sin(t * 0.7).abs()
acc = ((t * 3) % 5 < 3).double()
hist, edges = torch.histogram(conf, bins=5, range=(0.5, 1.0))
print(hist, edges)
acc_hist, _ = torch.histogram(conf, bins=edges, weight=acc)
conf_hist, _ = torch.histogram(conf, bins=edges, weight=conf)
print(acc_hist)
dens, _ = torch.histogram(conf, bins=4, density=True)
print(dens)
print(torch.histogram(conf.float(), bins=3))
for b in range(5):
    cnt = int(hist[b])
    a = (acc_hist[b] / hist[b]).item() if cnt else float("nan")
    c = (conf_hist[b] / hist[b]).item() if cnt else float("nan")
    print(f"{edges[b]:.2f}-{edges[b+1]:.2f} n={cnt:2d} acc={a:.3f} conf={c:.3f} " + "#" * cnt)
print(torch.corrcoef(torch.stack([conf, acc])))
print(torch.cov(torch.stack([conf, acc])))
print(torch.cov(torch.stack([conf, acc]), correction=0))
fw = (torch.arange(n) % 3 + 1)
aw = torch.linspace(0.1, 1.0, n, dtype=torch.float64)
print(torch.cov(torch.stack([conf, acc]), fweights=fw, aweights=aw))
print(torch.cov(conf))
print(torch.corrcoef(conf.float()))
print(torch.cov(torch.stack([conf, acc]).float(), correction=0).dtype)
print(torch.corrcoef(torch.tensor([[1, 2, 3], [3, 1, 2]])))
print(torch.cov(torch.tensor([[1, 2, 4], [1, 0, 1]])))
print(torch.corrcoef(torch.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])))
print(torch.cov(torch.tensor([[1.0, 2.0]]), correction=2))
try:
    torch.cov(torch.stack([conf, acc]), fweights=torch.ones(n))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.cov(torch.stack([conf, acc]), aweights=-aw)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.cov(torch.zeros(2, 2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
x = torch.stack([conf, acc]).requires_grad_()
torch.corrcoef(x)[0, 1].backward()
print(x.grad[:, :4])
