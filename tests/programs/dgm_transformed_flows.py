# Building flows from torch.distributions.transforms: TransformedDistribution with Affine/Exp/
# Sigmoid/Tanh/Compose transforms, inverse, log_abs_det_jacobian, and their reprs.
import torch
from torch.distributions import Normal, Independent, TransformedDistribution, Uniform, LogNormal
from torch.distributions.transforms import (AffineTransform, ExpTransform, SigmoidTransform,
                                            TanhTransform, ComposeTransform, PowerTransform,
                                            SoftmaxTransform, StickBreakingTransform)
import torch.distributions.transforms as T

base = Normal(torch.zeros(3), torch.ones(3))
aff = AffineTransform(loc=torch.tensor([1.0, -1.0, 0.5]), scale=torch.tensor([2.0, 0.5, 1.5]))
print(aff)
print(ExpTransform(), SigmoidTransform(), TanhTransform())
print(aff.domain, aff.codomain, aff.bijective, aff.sign)
flow = TransformedDistribution(base, [aff, ExpTransform()])
print(flow)
print(flow.batch_shape, flow.event_shape)
y = torch.tensor([0.5, 1.0, 2.0])
print(flow.log_prob(y))
ln = LogNormal(torch.tensor([1.0, -1.0, 0.5]), torch.tensor([2.0, 0.5, 1.5]))
print(ln.log_prob(y))
print(flow.sample((4,)).shape, flow.rsample().shape)

x = torch.linspace(-2, 2, 5)
comp = ComposeTransform([AffineTransform(0.0, 3.0), TanhTransform()])
print(comp)
yy = comp(x)
print(yy)
print(comp.inv(yy))
print(comp.log_abs_det_jacobian(x, yy))
print(comp.inv)
print(comp.inv.inv is comp)
s = SigmoidTransform()
print(s(x), s.inv(s(x)), s.log_abs_det_jacobian(x, s(x)), sep="\n")
e = ExpTransform()
print(e.inv, e.inv(torch.tensor([1.0, 2.0])))
print(PowerTransform(torch.tensor(2.0))(torch.tensor([3.0])))
print(T.identity_transform, T.identity_transform(x))

logit_normal = TransformedDistribution(Normal(0.0, 1.0), [SigmoidTransform()])
print(logit_normal.log_prob(torch.tensor([0.1, 0.5, 0.9])))
print(logit_normal.support)
tanh_normal = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [TanhTransform(cache_size=1)])
a = torch.tensor([-0.5, 0.3])
print(tanh_normal.log_prob(a))
ind_flow = TransformedDistribution(Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1),
                                   [AffineTransform(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0]), event_dim=1)])
print(ind_flow.batch_shape, ind_flow.event_shape)
print(ind_flow.log_prob(torch.ones(2, 3)))
sm = SoftmaxTransform()
print(sm(torch.tensor([1.0, 2.0, 3.0])))
sb = StickBreakingTransform()
v = sb(torch.tensor([0.3, -0.5]))
print(v, sb.inv(v))
print(sb.log_abs_det_jacobian(torch.tensor([0.3, -0.5]), v))
aff_t = AffineTransform(torch.tensor(0.0), torch.tensor(2.0))
z = torch.tensor([1.0, 2.0], requires_grad=True)
out = TransformedDistribution(Normal(0.0, 1.0), [aff_t]).log_prob(z).sum()
out.backward()
print(out, z.grad)
print(flow.mean if False else "skip-mean")
try:
    print(flow.mean)
except NotImplementedError as err:
    print("NotImplementedError", err)
print(Uniform(0.0, 1.0).icdf(torch.tensor([0.25])), Normal(0.0, 1.0).cdf(torch.tensor([0.0, 1.0])))
print(Normal(0.0, 1.0).icdf(torch.tensor([0.1, 0.5, 0.975])))
