# Numerical-stability tests from a loss/activation library: extreme inputs (±inf, huge logits,
# tiny values, all -inf rows) must give finite / NaN results exactly where PyTorch does.
import torch
import torch.nn.functional as F
from torch.testing import assert_close

inf, nan = float("inf"), float("nan")


def report(name, t):
    finite = torch.isfinite(t)
    print(f"{name:28s} finite={finite.all().item()!s:5s} nan={torch.isnan(t).any().item()!s:5s} {t}")


big = torch.tensor([[1000.0, 0.0, -1000.0], [-inf, 0.0, 1.0], [-inf, -inf, -inf], [88.0, 89.0, 90.0]])
report("logsumexp", torch.logsumexp(big, dim=1))
report("softmax", F.softmax(big, dim=1))
report("log_softmax", F.log_softmax(big, dim=1))
report("naive log(softmax)", torch.log(F.softmax(big, dim=1)))
report("exp overflow", torch.exp(torch.tensor([88.0, 89.0, 709.0])))
report("exp f64", torch.exp(torch.tensor([709.0, 710.0], dtype=torch.float64)))

logits = torch.tensor([-200.0, -20.0, 0.0, 20.0, 200.0])
target = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
report("bce_with_logits", F.binary_cross_entropy_with_logits(logits, target, reduction="none"))
report("naive bce", F.binary_cross_entropy(torch.sigmoid(logits), target, reduction="none"))
report("softplus", F.softplus(logits))
report("logsigmoid", F.logsigmoid(logits))
report("sigmoid", torch.sigmoid(logits))
report("tanh", torch.tanh(logits))

tiny = torch.tensor([1e-10, 1e-20, -1e-10, 0.0])
report("log1p", torch.log1p(tiny))
report("expm1", torch.expm1(tiny))
report("naive exp-1", torch.exp(tiny) - 1)
report("sqrt(x^2+eps)", torch.sqrt(tiny ** 2 + 1e-12))
report("norm of zeros", torch.linalg.vector_norm(torch.zeros(3)).reshape(1))
x0 = torch.zeros(3, requires_grad=True)
torch.linalg.vector_norm(x0).backward()
report("grad norm at 0", x0.grad)
x1 = torch.zeros(3, requires_grad=True)
torch.sqrt((x1 ** 2).sum()).backward()
report("grad sqrt(sum sq) at 0", x1.grad)

ce = F.cross_entropy(torch.tensor([[1e4, -1e4], [0.0, 0.0]]), torch.tensor([1, 0]), reduction="none")
report("cross_entropy extreme", ce)
report("kl_div log_target", F.kl_div(torch.tensor([-inf, 0.0]), torch.tensor([-inf, 0.0]),
                                     reduction="none", log_target=True))
report("kl_div zeros", F.kl_div(torch.tensor([0.0, -1.0]), torch.tensor([0.0, 0.5]), reduction="none"))
report("xlogy", torch.xlogy(torch.tensor([0.0, 0.0, 1.0]), torch.tensor([0.0, nan, 0.0])))
report("special.entr", torch.special.entr(torch.tensor([0.0, 1.0, -1.0, inf])))
report("atan2 zeros", torch.atan2(torch.tensor([0.0, -0.0, 0.0, -0.0]), torch.tensor([0.0, 0.0, -0.0, -0.0])))
report("div by zero", torch.tensor([1.0, -1.0, 0.0]) / 0.0)
report("pow edge", torch.tensor([0.0, -1.0, inf]) ** torch.tensor([0.0, 0.5, -1.0]))
report("nan_to_num", torch.nan_to_num(torch.tensor([nan, inf, -inf, 1.0])))
report("clamp nan", torch.tensor([nan, 2.0]).clamp(0, 1))
report("max with nan", torch.tensor([1.0, nan, 3.0]).max().reshape(1))
report("fmax/fmin", torch.stack([torch.fmax(torch.tensor([nan, 1.0]), torch.tensor([2.0, nan])),
                                 torch.fmin(torch.tensor([nan, 1.0]), torch.tensor([2.0, nan]))]))
report("nanmean", torch.tensor([nan, 1.0, 3.0]).nanmean().reshape(1))
report("var single", torch.tensor([1.0]).var().reshape(1))
assert_close(F.log_softmax(big[:2], dim=1).exp().sum(1), torch.ones(2))
print("log_softmax rows normalised: ok")
