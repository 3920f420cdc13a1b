# A create_scheduler(cfg) factory as in timm / detectron-style trainers: warmup + main schedule built
# from a config dict with SequentialLR / ChainedScheduler / LambdaLR, per-iteration stepping, and the
# validation errors users hit with bad configs. Prints the lr at a few iterations for each config.
import math

import torch
from torch.optim import lr_scheduler as S


def make_opt():
    w = torch.nn.Parameter(torch.ones(2))
    b = torch.nn.Parameter(torch.zeros(1))
    return torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.9)


def create_scheduler(opt, cfg):
    main_name = cfg["name"]
    total = cfg["iters"] - cfg.get("warmup", 0)
    if main_name == "cosine":
        main = S.CosineAnnealingLR(opt, T_max=total, eta_min=cfg.get("min_lr", 0.0))
    elif main_name == "step":
        main = S.MultiStepLR(opt, milestones=cfg["milestones"], gamma=cfg.get("gamma", 0.1))
    elif main_name == "poly":
        main = S.PolynomialLR(opt, total_iters=total, power=cfg.get("power", 0.9))
    elif main_name == "lambda":
        main = S.LambdaLR(opt, lambda it: 0.5 * (1 + math.cos(math.pi * it / total)))
    elif main_name == "chain":
        main = S.ChainedScheduler([S.ExponentialLR(opt, gamma=0.9), S.ConstantLR(opt, factor=0.5, total_iters=3)])
    elif main_name == "chain_empty":
        main = S.ChainedScheduler([])
    else:
        raise ValueError(f"unknown scheduler {main_name!r}")
    if not cfg.get("warmup"):
        return main
    warm = S.LinearLR(opt, start_factor=cfg.get("warmup_factor", 0.001), total_iters=cfg["warmup"])
    return S.SequentialLR(opt, schedulers=[warm, main], milestones=[cfg["warmup"]])


configs = [
    {"name": "cosine", "iters": 10, "warmup": 3, "min_lr": 1e-4},
    {"name": "step", "iters": 10, "milestones": [4, 7], "gamma": 0.5},
    {"name": "poly", "iters": 10, "warmup": 2, "warmup_factor": 0.1, "power": 2.0},
    {"name": "lambda", "iters": 8},
    {"name": "chain", "iters": 6},
]
for cfg in configs:
    opt = make_opt()
    sched = create_scheduler(opt, cfg)
    lrs = []
    for it in range(cfg["iters"]):
        lrs.append(tuple(round(g["lr"], 6) for g in opt.param_groups))
        opt.step()
        sched.step()
    print(cfg["name"], type(sched).__name__)
    print("  group0", [l[0] for l in lrs])
    print("  group1", [l[1] for l in lrs])
    print("  last", [round(x, 6) for x in sched.get_last_lr()], "initial_lr", opt.param_groups[1]["initial_lr"])

bad = [
    {"name": "onecycle", "iters": 5},
    {"name": "cosine", "iters": 5, "warmup": 2, "warmup_factor": 0.0},
    {"name": "step", "iters": 5, "milestones": [2], "gamma": 0.5, "warmup": 2, "warmup_factor": 2.0},
    {"name": "chain_empty", "iters": 5},
]
for cfg in bad:
    try:
        create_scheduler(make_opt(), cfg)
        print(cfg["name"], "ok")
    except ValueError as e:
        print(cfg["name"], type(e).__name__, e)

opt = make_opt()
try:
    S.SequentialLR(opt, [S.StepLR(opt, 2), S.ReduceLROnPlateau(opt)], milestones=[2])
except ValueError as e:
    print(type(e).__name__, e)
try:
    S.ChainedScheduler([S.StepLR(opt, 2), S.StepLR(make_opt(), 2)])
except ValueError as e:
    print(type(e).__name__, str(e).splitlines()[0])
