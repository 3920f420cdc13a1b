# Survival analysis (DeepSurv-style Cox partial likelihood): risk sets are handled with
# flip + logcumsumexp after sorting by time; the Newton step needs the Hessian, which people
# build with autograd.grad(create_graph=True). Also the classic running-max/drawdown drill.
import torch

torch.set_printoptions(precision=5)
time = torch.tensor([5., 1., 3., 8., 2., 6.])
event = torch.tensor([1., 1., 0., 1., 1., 0.])
X = torch.tensor([[0.5, 1.0], [1.5, -0.5], [0.0, 0.3], [-1.0, 0.8], [2.0, 0.1], [0.2, -1.2]], dtype=torch.float64)
order = torch.argsort(time, descending=True)
print(order, time[order], event[order])


def neg_partial_log_lik(beta):
    risk = (X @ beta)[order]
    log_risk_set = torch.logcumsumexp(risk, dim=0)
    e = event[order].double()
    return -((risk - log_risk_set) * e).sum() / e.sum()


beta = torch.tensor([0.1, -0.2], dtype=torch.float64, requires_grad=True)
loss = neg_partial_log_lik(beta)
g, = torch.autograd.grad(loss, beta, create_graph=True)
H = torch.stack([torch.autograd.grad(g[i], beta, retain_graph=True)[0] for i in range(2)])
print(loss, g, H, sep="\n")
print(torch.autograd.functional.hessian(neg_partial_log_lik, beta.detach()))
with torch.no_grad():
    step = torch.linalg.solve(H, g)
print(step, neg_partial_log_lik(beta.detach() - step))

# a direct check of the second derivative of logcumsumexp
z = torch.tensor([1., 2., 4.], dtype=torch.float64, requires_grad=True)
y = torch.logcumsumexp(z, 0)
gz, = torch.autograd.grad((y * torch.tensor([1., 2., 3.], dtype=torch.float64)).sum(), z, create_graph=True)
hz, = torch.autograd.grad((gz * gz).sum(), z)
print(y, gz, hz, sep="\n")
gz2, = torch.autograd.grad(torch.logcumsumexp(z, 0).sum(), z, create_graph=True)
print(gz2, torch.autograd.grad(gz2.sum(), z)[0])
try:
    print(torch.autograd.gradgradcheck(lambda t: torch.logcumsumexp(t, 0), (z,)))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

# max drawdown of a price series: running max with cummax, and its gradient
price = torch.tensor([100., 104., 101., 107., 95., 99., 110.], requires_grad=True)
peak = torch.cummax(price, dim=0)
drawdown = (peak.values - price) / peak.values
mdd = drawdown.max()
mdd.backward()
print(peak.indices, drawdown, mdd, price.grad, sep="\n")
price.grad = None
lse = torch.logcumsumexp(price / 10, 0)
(lse[-1] - lse[0]).backward()
print(lse, price.grad, sep="\n")
