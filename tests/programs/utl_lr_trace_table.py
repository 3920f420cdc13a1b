# Printing learning-rate traces the way people sanity-check schedules before training: warm restarts
# stepped with fractional epochs, warmup+cosine via SequentialLR, ChainedScheduler, OneCycleLR three-phase
# with Adam beta1 cycling, CyclicLR exp_range with momentum, and a SequentialLR state_dict round-trip.
import torch
from torch.optim import SGD, Adam
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, CosineAnnealingLR,
                                      CosineAnnealingWarmRestarts, CyclicLR, ExponentialLR, LinearLR,
                                      OneCycleLR, SequentialLR)


def params():
    return [torch.nn.Parameter(torch.ones(2))]


def fmt(xs):
    return " ".join(f"{x:.4f}" for x in xs)


opt = SGD(params(), lr=0.1)
sched = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
iters = 4
trace = []
for epoch in range(4):
    for i in range(iters):
        opt.step()
        sched.step(epoch + i / iters)
        trace.append(sched.get_last_lr()[0])
print("warm restarts:", fmt(trace))
print("T_i", sched.T_i, "T_cur", sched.T_cur, "last_epoch", sched.last_epoch)

opt = SGD(params(), lr=0.1)
warm = LinearLR(opt, start_factor=0.1, end_factor=1.0, total_iters=3)
cos = CosineAnnealingLR(opt, T_max=5, eta_min=0.0)
seq = SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
trace = []
for _ in range(9):
    opt.step()
    seq.step()
    trace.append(seq.get_last_lr()[0])
print("warmup+cosine:", fmt(trace))
sd = seq.state_dict()
print(sorted(sd.keys()), sd["_milestones"], sd["last_epoch"], len(sd["_schedulers"]))

opt2 = SGD(params(), lr=0.1)
warm2 = LinearLR(opt2, start_factor=0.1, end_factor=1.0, total_iters=3)
cos2 = CosineAnnealingLR(opt2, T_max=5, eta_min=0.0)
seq2 = SequentialLR(opt2, schedulers=[warm2, cos2], milestones=[3])
seq2.load_state_dict(sd)
opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
nxt = []
for _ in range(3):
    opt.step(); seq.step(); opt2.step(); seq2.step()
    nxt.append((seq.get_last_lr()[0], seq2.get_last_lr()[0]))
print("resumed same:", all(abs(a - b) < 1e-12 for a, b in nxt), fmt(b for _, b in nxt))

opt = SGD(params(), lr=1.0)
chain = ChainedScheduler([ConstantLR(opt, factor=0.5, total_iters=3), ExponentialLR(opt, gamma=0.8)],
                         optimizer=opt)
trace = [chain.get_last_lr()[0]]
for _ in range(6):
    opt.step()
    chain.step()
    trace.append(chain.get_last_lr()[0])
print("chained:", fmt(trace))

opt = Adam(params(), lr=1e-3, betas=(0.9, 0.99))
one = OneCycleLR(opt, max_lr=0.01, total_steps=10, three_phase=True, anneal_strategy="linear",
                 div_factor=10, final_div_factor=100, base_momentum=0.8, max_momentum=0.95)
lrs, b1 = [], []
for _ in range(10):
    lrs.append(opt.param_groups[0]["lr"])
    b1.append(opt.param_groups[0]["betas"][0])
    opt.step()
    one.step() if len(lrs) < 10 else None
print("onecycle lr:", fmt(lrs))
print("onecycle beta1:", fmt(b1))

opt = SGD(params(), lr=0.1, momentum=0.9)
cyc = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9,
               base_momentum=0.8, max_momentum=0.9)
lrs, moms = [], []
for _ in range(8):
    opt.step()
    cyc.step()
    lrs.append(cyc.get_last_lr()[0])
    moms.append(opt.param_groups[0]["momentum"])
print("cyclic lr:", fmt(lrs))
print("cyclic momentum:", fmt(moms))
try:
    CyclicLR(Adam(params(), lr=0.1, betas=(0.9, 0.99)), base_lr=0.01, max_lr=0.1, cycle_momentum=True)
    print("adam cyclic ok")
except ValueError as e:
    print(type(e).__name__, e)
try:
    SequentialLR(opt, schedulers=[warm, cos], milestones=[3])
except ValueError as e:
    print(type(e).__name__, e)
