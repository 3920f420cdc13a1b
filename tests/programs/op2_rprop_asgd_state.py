# Rprop with custom etas/step_sizes and ASGD (lambd, alpha, t0): a user fitting a curve
# full-batch and peeking at prev/step_size and eta/mu/ax state entries.
import torch

xs = torch.linspace(-2, 2, 12)
ys = 0.7 * xs ** 3 - xs + 0.3

def fit(opt_cls, steps=12, **kw):
    coef = torch.nn.Parameter(torch.tensor([0.1, 0.2, -0.1, 0.05]))
    opt = opt_cls([coef], **kw)
    hist = []
    for i in range(steps):
        opt.zero_grad()
        pred = coef[0] * xs ** 3 + coef[1] * xs ** 2 + coef[2] * xs + coef[3]
        loss = ((pred - ys) ** 2).mean()
        loss.backward()
        opt.step()
        hist.append(f"{loss.item():.4f}")
    return coef, opt, hist

for kw in [dict(), dict(lr=0.05, etas=(0.3, 1.5)), dict(lr=0.01, step_sizes=(1e-4, 0.1)),
           dict(lr=0.02, etas=(0.4, 1.1), step_sizes=(1e-3, 1.0), maximize=False)]:
    coef, opt, hist = fit(torch.optim.Rprop, **kw)
    print("Rprop", kw, hist[::3])
    print("  coef", [round(v, 5) for v in coef.detach().tolist()])
    st = opt.state[coef]
    print("  keys", sorted(st), st["step"])
    print("  prev", [round(v, 5) for v in st["prev"].tolist()])
    print("  step_size", [round(v, 6) for v in st["step_size"].tolist()])
    print("  group", opt.param_groups[0]["etas"], opt.param_groups[0]["step_sizes"])

for kw in [dict(lr=0.01), dict(lr=0.01, lambd=1e-3, alpha=0.5, t0=3), dict(lr=0.02, t0=0, weight_decay=0.01)]:
    coef, opt, hist = fit(torch.optim.ASGD, **kw)
    print("ASGD", kw, hist[::3])
    print("  coef", [round(v, 5) for v in coef.detach().tolist()])
    st = opt.state[coef]
    print("  keys", sorted(st))
    print("  step", st["step"], "eta", f"{st['eta'].item():.6f}", "mu", f"{st['mu'].item():.6f}")
    print("  ax", [round(v, 5) for v in st["ax"].tolist()])

print(torch.optim.Rprop([torch.nn.Parameter(torch.zeros(2))], etas=(0.4, 1.3)))
print(torch.optim.ASGD([torch.nn.Parameter(torch.zeros(2))], t0=10))
for kw in [dict(etas=(1.2, 0.5)), dict(etas=(0.5, 0.9)), dict(lr=-1.0)]:
    try:
        torch.optim.Rprop([torch.nn.Parameter(torch.zeros(2))], **kw)
    except ValueError as e:
        print("ValueError:", e)
