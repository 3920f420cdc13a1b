# Scheduler corners from forum threads: CyclicLR modes (exp_range, scale_fn, Adam betas),
# OneCycleLR linear/three_phase and stepping past the end, ReduceLROnPlateau mode="max" with
# threshold_mode="abs", per-group LambdaLR lists, schedulers resumed with last_epoch, and errors.
import warnings

import torch
from torch.optim import lr_scheduler as S

warnings.simplefilter("ignore")
p = torch.nn.Parameter(torch.zeros(2))


def trace(opt, sched, n, key="lr"):
    out = []
    for _ in range(n):
        opt.step()
        sched.step()
        out.append(round(opt.param_groups[0][key], 5))
    return out


opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
cyc = S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9)
print(trace(opt, cyc, 9))
print(round(opt.param_groups[0]["momentum"], 5), [round(v, 5) for v in cyc.get_last_lr()])

opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
cyc = S.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=1,
                 scale_fn=lambda x: 1 / (2.0 ** (x - 1)), scale_mode="cycle")
print(trace(opt, cyc, 9), trace(opt, cyc, 0))
print(sorted(k for k in cyc.state_dict() if not k.startswith("_")))

opt = torch.optim.Adam([p], lr=0.1)
cyc = S.CyclicLR(opt, base_lr=0.001, max_lr=0.01, step_size_up=2, base_momentum=0.8, max_momentum=0.95)
print(trace(opt, cyc, 5), opt.param_groups[0]["betas"])

opt = torch.optim.Adagrad([p], lr=0.1)
try:
    S.CyclicLR(opt, base_lr=0.001, max_lr=0.01)
except ValueError as e:
    print(type(e).__name__, e)
try:
    S.CyclicLR(torch.optim.SGD([p], lr=0.1), base_lr=0.001, max_lr=0.01, mode="cosine")
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
one = S.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="linear", three_phase=True)
print(round(opt.param_groups[0]["lr"], 5), opt.param_groups[0]["initial_lr"], opt.param_groups[0]["max_lr"],
      opt.param_groups[0]["min_lr"])
print(trace(opt, one, 9))
print(round(opt.param_groups[0]["momentum"], 5))
try:
    opt.step()
    one.step()
except ValueError as e:
    print(type(e).__name__, e)
try:
    S.OneCycleLR(opt, max_lr=1.0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    S.OneCycleLR(opt, max_lr=1.0, total_steps=10, anneal_strategy="step")
except ValueError as e:
    print(type(e).__name__, e)
print(S.OneCycleLR(torch.optim.SGD([p], lr=0.1), max_lr=0.5, epochs=3, steps_per_epoch=4).total_steps)

opt = torch.optim.SGD([p], lr=1.0)
plat = S.ReduceLROnPlateau(opt, mode="max", factor=0.5, patience=1, threshold=0.1, threshold_mode="abs")
for acc in [0.5, 0.55, 0.58, 0.7, 0.75, 0.79, 0.8, 0.81]:
    plat.step(acc)
    print(acc, plat.best, plat.num_bad_epochs, opt.param_groups[0]["lr"], plat.get_last_lr())
try:
    S.ReduceLROnPlateau(opt, mode="maximum")
except ValueError as e:
    print(type(e).__name__, e)
try:
    S.ReduceLROnPlateau(opt, factor=1.0)
except ValueError as e:
    print(type(e).__name__, e)

w1 = torch.nn.Parameter(torch.zeros(1))
w2 = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([{"params": [w1]}, {"params": [w2], "lr": 0.5}], lr=0.1)
lam = S.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1.0 / (e + 1)])
for _ in range(3):
    opt.step()
    lam.step()
    print([round(v, 5) for v in lam.get_last_lr()])
print(sorted(lam.state_dict().keys()), lam.state_dict()["lr_lambdas"])
try:
    S.LambdaLR(opt, lr_lambda=[lambda e: 1.0])
except ValueError as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD([p], lr=0.1)
try:
    S.StepLR(opt, step_size=2, last_epoch=5)
except KeyError as e:
    print(type(e).__name__, e)
opt.param_groups[0]["initial_lr"] = 0.1
st = S.StepLR(opt, step_size=2, gamma=0.5, last_epoch=5)
print(st.last_epoch, st.get_last_lr(), opt.param_groups[0]["lr"])
st.step()
print(st.last_epoch, st.get_last_lr())
