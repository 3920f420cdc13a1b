# Checkpointing to an in-memory buffer (io.BytesIO) the way training scripts do: a dict with
# model/optimizer/scheduler state and the epoch, resuming, strict=False results, shape-mismatch
# errors, "module." prefixes, views sharing storage, Parameters and requires_grad after loading.
import io
from collections import OrderedDict

import torch
import torch.nn as nn


def make():
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (i + 1) / 4)
    return m


model = make()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
x = torch.tensor([[1.0, 2.0], [0.0, -1.0], [2.0, 0.5], [-1.0, 1.0]])
t = torch.tensor([[1.0], [0.0], [2.0], [-1.0]])
for epoch in range(2):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), t)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, round(loss.item(), 5))

buf = io.BytesIO()
torch.save({"epoch": 2, "model": model.state_dict(), "optim": opt.state_dict(),
            "sched": sched.state_dict(), "loss": loss.item()}, buf)
print(buf.tell() > 0)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(type(ck["model"]).__name__, list(ck["model"].keys()))
print(ck["model"]["1.num_batches_tracked"], ck["model"]["1.running_var"])
print(ck["epoch"], type(ck["loss"]).__name__, ck["sched"]["last_epoch"], ck["sched"]["_last_lr"])

model2 = make()
opt2 = torch.optim.SGD(model2.parameters(), lr=0.1, momentum=0.9)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=1, gamma=0.5)
print(model2.load_state_dict(ck["model"]))
opt2.load_state_dict(ck["optim"])
sched2.load_state_dict(ck["sched"])
print(opt2.param_groups[0]["lr"], sched2.get_last_lr(), opt2.state[model2[3].weight]["momentum_buffer"])
model.eval(); model2.eval()
print(torch.equal(model(x), model2(x)), model2(x).view(-1))

# strict=False: report of missing / unexpected keys
sd = model.state_dict()
sd["extra.weight"] = torch.zeros(1)
del sd["3.bias"]
res = model2.load_state_dict(sd, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
try:
    model2.load_state_dict(sd)
except RuntimeError as e:
    print(type(e).__name__, e)

bad = OrderedDict(model.state_dict())
bad["0.weight"] = torch.zeros(4, 2)
try:
    model2.load_state_dict(bad)
except RuntimeError as e:
    print(type(e).__name__, e)

# A checkpoint saved from nn.DataParallel has "module." prefixes
prefixed = OrderedDict(("module." + k, v) for k, v in model.state_dict().items())
clean = OrderedDict((k.removeprefix("module."), v) for k, v in prefixed.items())
print(model2.load_state_dict(clean))
nn.modules.utils.consume_prefix_in_state_dict_if_present(prefixed, "module.")
print(list(prefixed.keys())[:3])

# Views saved together keep sharing storage after loading
base = torch.arange(6.0)
buf = io.BytesIO()
torch.save({"base": base, "view": base[2:5], "param": nn.Parameter(torch.ones(2)),
            "rg": torch.ones(2, requires_grad=True)}, buf)
buf.seek(0)
d = torch.load(buf)
d["base"][3] = 100.0
print(d["view"], d["view"].storage_offset(), d["view"].is_contiguous())
print(type(d["param"]).__name__, d["param"].requires_grad, d["rg"].requires_grad, d["rg"].is_leaf)

# keep_vars=True returns the Parameters themselves
kv = model.state_dict(keep_vars=True)
print(type(kv["0.weight"]).__name__, kv["0.weight"] is model[0].weight, model.state_dict()["0.weight"].requires_grad)
