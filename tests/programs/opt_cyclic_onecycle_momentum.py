# CyclicLR (triangular2 / exp_range, cycle_momentum) and OneCycleLR (three_phase, linear)
# as in fast.ai-style training: print lr and momentum/betas as they cycle.
import torch

model = torch.nn.Linear(3, 1)

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3,
                                          mode="triangular2", base_momentum=0.8, max_momentum=0.95)
print("initial", round(opt.param_groups[0]["lr"], 5), opt.param_groups[0]["momentum"])
for i in range(14):
    opt.step()
    sched.step()
    g = opt.param_groups[0]
    print(i, f"{sched.get_last_lr()[0]:.5f}", f"{g['momentum']:.4f}")
sd = sched.state_dict()
print(sorted(sd.keys()))
print(sd["last_epoch"], sd["mode"], sd["scale_mode"], sd["total_size"], sd["step_ratio"])

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=[0.02], max_lr=[0.2], step_size_up=2,
                                          step_size_down=4, mode="exp_range", gamma=0.9,
                                          cycle_momentum=False)
for i in range(10):
    opt.step()
    sched.step()
    print("exp_range", i, f"{sched.get_last_lr()[0]:.6f}")

opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.99))
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=12, pct_start=0.25,
                                            anneal_strategy="linear", three_phase=True,
                                            div_factor=10.0, final_div_factor=100.0)
g = opt.param_groups[0]
print("onecycle start", f"{g['lr']:.6f}", g["betas"], f"{g['initial_lr']:.4f}", f"{g['max_lr']:.4f}", f"{g['min_lr']:.7f}")
for i in range(12):
    opt.step()
    sched.step()
    g = opt.param_groups[0]
    print("oc", i, f"{g['lr']:.6f}", tuple(round(b, 4) for b in g["betas"]))
try:
    opt.step()
    sched.step()
except ValueError as e:
    print("ValueError", e)

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.3], epochs=2, steps_per_epoch=3)
for i in range(6):
    opt.step()
    sched.step()
    print("cos", i, f"{sched.get_last_lr()[0]:.6f}", f"{opt.param_groups[0]['momentum']:.4f}")
print(sorted(sched.state_dict().keys()))
try:
    torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10, anneal_strategy="quad")
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.CyclicLR(torch.optim.Adagrad(model.parameters()), base_lr=0.1, max_lr=0.2)
except ValueError as e:
    print("ValueError", e)
