# Exploring torch.distributions.transforms when assembling a flow (Pyro/nflows-style glue code):
# domain/codomain/event_dim, inv, cache_size, ComposeTransform/IndependentTransform/ReshapeTransform,
# CatTransform/StackTransform, CumulativeDistributionTransform, shapes and equality checks.
import torch
import torch.distributions as D
import torch.distributions.transforms as T

x = torch.linspace(-1.5, 1.5, 6).reshape(2, 3)
ts = [T.ExpTransform(), T.SigmoidTransform(), T.TanhTransform(), T.SoftplusTransform(),
      T.AbsTransform(), T.AffineTransform(1.0, 2.0), T.PowerTransform(3.0)]
for t in ts:
    print(type(t).__name__, t.domain, t.codomain, t.domain.event_dim, t.bijective, t.sign if t.bijective and not isinstance(t, T.AbsTransform) else "-")

soft = T.SoftplusTransform()
y = soft(x)
print(y)
print(soft.inv(y))
print(soft.log_abs_det_jacobian(x, y))

comp = T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.SigmoidTransform()])
print(comp.domain, comp.codomain, comp.codomain.event_dim)
print(comp.log_abs_det_jacobian(x, comp(x)))
ind = T.IndependentTransform(T.SigmoidTransform(), 1)
print(ind, ind.domain.event_dim, ind.domain, ind.codomain)
print(ind.log_abs_det_jacobian(x, ind(x)))

rs = T.ReshapeTransform((6,), (2, 3))
print(rs.forward_shape((4, 6)), rs.inverse_shape((4, 2, 3)), rs.domain.event_dim)
print(rs(torch.arange(6.0)), rs.log_abs_det_jacobian(torch.arange(6.0), rs(torch.arange(6.0))))

cat = T.CatTransform([T.ExpTransform(), T.AffineTransform(0.0, 3.0)], dim=0, lengths=[1, 1])
print(cat(x))
print(cat.log_abs_det_jacobian(x, cat(x)))
stk = T.StackTransform([T.ExpTransform(), T.TanhTransform()], dim=1)
z = torch.stack([torch.tensor([0.1, 0.2]), torch.tensor([0.3, -0.4])], 1)
print(stk(z), stk.inv(stk(z)), stk.log_abs_det_jacobian(z, stk(z)), sep="\n")

cdf_t = T.CumulativeDistributionTransform(D.Normal(0.0, 1.0))
u = cdf_t(torch.tensor([-1.0, 0.0, 2.0]))
print(u, cdf_t.inv(u), cdf_t.log_abs_det_jacobian(torch.tensor([-1.0, 0.0, 2.0]), u))
print(cdf_t.codomain)

cached = T.ExpTransform(cache_size=1)
a = torch.tensor([0.3, 0.7])
b = cached(a)
print(cached.inv(b) is a, T.ExpTransform()(a).equal(b))
print(T.ExpTransform() == T.ExpTransform(), T.ExpTransform() == T.SigmoidTransform())
print(T.ExpTransform().inv == T.ExpTransform().inv, T.ExpTransform().with_cache(1))
try:
    T.ExpTransform(cache_size=2)
except ValueError as e:
    print(type(e).__name__, e)

ltr = T.LowerCholeskyTransform()
m = torch.tensor([[1.0, 5.0], [0.5, -0.2]])
print(ltr(m))
print(T.CorrCholeskyTransform()(torch.tensor([0.3])))
print(T.PositiveDefiniteTransform()(m))
dist = D.TransformedDistribution(D.Normal(torch.zeros(3), torch.ones(3)), [T.SoftplusTransform(), T.PowerTransform(0.5)])
print(dist.support, dist.batch_shape, dist.event_shape)
print(dist.log_prob(torch.tensor([0.5, 1.0, 1.5])))
print(dist.cdf(torch.tensor([0.5, 1.0, 1.5])) if False else "")
ind_dist = D.TransformedDistribution(D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1), ind)
print(ind_dist.batch_shape, ind_dist.event_shape, ind_dist.log_prob(torch.full((2, 3), 0.4)))
