# Resuming training mid-schedule: save optimizer + scheduler state_dicts with torch.save,
# rebuild fresh objects, load, and check that the resumed run follows the original one.
import io
import torch


class WarmupFactor:
    """A picklable lr_lambda (its __dict__ is stored in LambdaLR.state_dict)."""

    def __init__(self, n):
        self.n = n

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.n)


p = torch.nn.Parameter(torch.ones(2))


def make_opt():
    return torch.optim.SGD([p], lr=0.1, momentum=0.9)


S = torch.optim.lr_scheduler
builders = {
    "LambdaLR(obj)": lambda o: S.LambdaLR(o, WarmupFactor(4)),
    "LambdaLR(fn)": lambda o: S.LambdaLR(o, lambda e: 0.9 ** e),
    "MultiplicativeLR": lambda o: S.MultiplicativeLR(o, lambda e: 0.95),
    "CyclicLR": lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2),
    "OneCycleLR": lambda o: S.OneCycleLR(o, 0.2, total_steps=10),
    "WarmRestarts": lambda o: S.CosineAnnealingWarmRestarts(o, 3, 2),
    "PolynomialLR": lambda o: S.PolynomialLR(o, 5, 1.5),
    "SequentialLR": lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.2, total_iters=2),
                                                 S.CosineAnnealingLR(o, 5)], [2]),
    "ChainedScheduler": lambda o: S.ChainedScheduler([S.LinearLR(o, 0.2, total_iters=2),
                                                      S.StepLR(o, 2, 0.5)]),
}
for name, build in builders.items():
    opt = make_opt()
    sched = build(opt)
    for _ in range(4):
        opt.step()
        sched.step()
    buf = io.BytesIO()
    torch.save({"sched": sched.state_dict(), "opt": opt.state_dict()}, buf)
    buf.seek(0)
    ckpt = torch.load(buf, weights_only=False)
    opt2 = make_opt()
    sched2 = build(opt2)
    opt2.load_state_dict(ckpt["opt"])
    sched2.load_state_dict(ckpt["sched"])
    rows = []
    for _ in range(4):
        opt.step(); sched.step()
        opt2.step(); sched2.step()
        g = opt2.param_groups[0]
        rows.append((round(sched.get_last_lr()[0], 6), round(sched2.get_last_lr()[0], 6),
                     round(g["lr"], 6), round(g["momentum"], 4)))
    print(f"{name:16s}", sorted(ckpt["sched"].keys()))
    print("   ", rows)

opt = make_opt()
print(S.StepLR(opt, 2).state_dict())
opt = make_opt()
print(S.CyclicLR(opt, 0.01, 0.1, step_size_up=2).state_dict())

model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(1.0)
    model.bias.fill_(0.5)
swa_model = torch.optim.swa_utils.AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_sched = torch.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
for epoch in range(5):
    opt.zero_grad()
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    swa_sched.step()
    swa_model.update_parameters(model)
    print("swa", epoch, round(swa_sched.get_last_lr()[0], 6), swa_model.n_averaged.item(),
          [round(v, 4) for v in swa_model.module.weight.flatten().tolist()])
print(list(swa_model.state_dict().keys()), sorted(swa_sched.state_dict().keys()))
