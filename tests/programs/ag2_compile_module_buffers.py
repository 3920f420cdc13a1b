# torch.compile on Modules that mutate their own state in forward: a call counter buffer,
# an exponential moving average buffer, BatchNorm1d running stats in train vs eval, a Python
# attribute counter, and torch.compiler.disable on a logging helper called inside forward.
import torch
import torch.nn as nn

log = []


@torch.compiler.disable
def record(tag, t):
    log.append((tag, round(float(t.detach().abs().sum()), 4)))


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.bn = nn.BatchNorm1d(2, momentum=0.5)
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))
        self.register_buffer("ema", torch.zeros(3))
        self.python_calls = 0
        with torch.no_grad():
            self.lin.weight.copy_(torch.tensor([[0.5, -0.5, 1.0], [1.0, 0.25, -1.0]]))
            self.lin.bias.copy_(torch.tensor([0.1, -0.2]))

    def forward(self, x):
        self.calls += 1
        self.python_calls += 1
        if self.training:
            self.ema.mul_(0.9).add_(x.detach().mean(0), alpha=0.1)
        h = self.bn(self.lin(x))
        record("h", h)
        return torch.relu(h)


model = Tracker()
cmodel = torch.compile(model)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0], [2.0, -2.0, 0.5], [0.0, 1.0, -1.0]])

for step in range(3):
    y = cmodel(x + step)
    y.sum().backward()
    print(step, y.detach().sum(1))
print(model.calls, model.python_calls, model.ema)
print(model.bn.running_mean, model.bn.running_var, model.bn.num_batches_tracked)
print(model.lin.weight.grad)
print(log)

cmodel.eval()
log.clear()
with torch.no_grad():
    ye = cmodel(x)
print(model.training, model.bn.training, ye)
print(model.calls, model.ema, model.bn.num_batches_tracked)
with torch.no_grad():
    print(torch.allclose(ye, model(x)))
print(log)

# state_dict of the compiled wrapper has the "_orig_mod." prefix, the module's own does not
print([k for k in cmodel.state_dict()])
print([k for k in model.state_dict()])
print(list(dict(cmodel.named_buffers())))

# BatchNorm with a batch of one in train mode (checked eagerly)
model.train()
try:
    model(x[:1])
except ValueError as e:
    print("ValueError:", e)
print(model.calls, model.python_calls)

# track_running_stats=False: batch statistics even in eval
bn = nn.BatchNorm1d(3, track_running_stats=False, affine=False).eval()
cbn = torch.compile(bn)
print(cbn(x), bn.running_mean)

# attributes assigned through the compiled wrapper land on the original module
cmodel.python_calls = 100
print(model.python_calls, cmodel.python_calls, "python_calls" in vars(cmodel))
cmodel.bn.momentum = 0.9
print(model.bn.momentum)
cmodel.train(False)
print(model.training, cmodel.training)
