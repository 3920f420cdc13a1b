# Things that break when checkpoints hold more than tensors: lambdas and local classes cannot
# be pickled, a LambdaLR scheduler's state_dict drops its lambdas, a Parameter's requires_grad
# and .grad on save, and pickle.dumps of a module directly.
import io
import pickle

import torch
import torch.nn as nn


def save_load(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)


def err(e):
    return type(e).__name__ + " " + str(e).split(" at 0x")[0]


try:
    save_load({"fn": lambda x: x * 2}, weights_only=False)
except Exception as e:
    print(err(e))


class Config:
    pass


def make_local():
    class Local:
        pass
    return Local()


try:
    save_load({"obj": make_local()}, weights_only=False)
except Exception as e:
    print(err(e))
print(type(save_load({"c": Config()}, weights_only=False)["c"]).__name__)

opt = torch.optim.SGD([nn.Parameter(torch.ones(2))], lr=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 0.5 ** e)
sched.step()
sd = sched.state_dict()
print(sd)
print(save_load(sd, weights_only=True)["lr_lambdas"])


class Warmup:
    def __init__(self, n):
        self.n = n

    def __call__(self, e):
        return min(1.0, (e + 1) / self.n)


sched2 = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=Warmup(4))
sd2 = sched2.state_dict()
print(sd2["lr_lambdas"], sd2["base_lrs"])
sched3 = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=Warmup(10))
sched3.load_state_dict(sd2)
print(sched3.lr_lambdas[0].n)

frozen = nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
live = nn.Parameter(torch.tensor([3.0]))
(live * 2).sum().backward()
f2, l2 = save_load([frozen, live], weights_only=True)
print(f2, l2, l2.grad, live.grad)

lin = nn.Linear(2, 1)
lin.register_forward_hook(lambda m, i, o: None)
try:
    pickle.dumps(lin)
except Exception as e:
    print(err(e))
lin2 = nn.Linear(2, 1)
restored = pickle.loads(pickle.dumps(lin2))
print(restored, torch.equal(restored.weight, lin2.weight), restored.weight.requires_grad)
