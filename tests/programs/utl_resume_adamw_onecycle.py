# Resume-from-checkpoint check used in reproducibility scripts: train N steps uninterrupted, versus
# train k steps, save model/optimizer/scheduler state_dicts to io.BytesIO, load into fresh objects,
# continue; the loss trajectories must be identical (AdamW amsgrad + OneCycleLR).
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def build():
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            n = p.numel()
            p.copy_((torch.sin(torch.arange(n, dtype=torch.float32) * 0.7 + i) * 0.5).view_as(p))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.05, amsgrad=True)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=20, pct_start=0.3)
    return model, opt, sched


X = torch.stack([torch.sin(torch.linspace(0, 3, 16)), torch.cos(torch.linspace(0, 2, 16)),
                 torch.linspace(-1, 1, 16)], dim=1)
Y = torch.stack([X[:, 0] * X[:, 1], X[:, 2] - X[:, 0]], dim=1)


def step(model, opt, sched):
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    return loss.item()


ref_model, ref_opt, ref_sched = build()
full = [step(ref_model, ref_opt, ref_sched) for _ in range(20)]
print("uninterrupted:", [f"{l:.5f}" for l in full[::4]])

model, opt, sched = build()
first = [step(model, opt, sched) for _ in range(8)]
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
            "step": 8}, buf)
print("checkpoint bytes > 0:", buf.getbuffer().nbytes > 0)
buf.seek(0)
ckpt = torch.load(buf)
print("keys:", sorted(ckpt))
print("opt state keys:", sorted(ckpt["opt"]["state"][0].keys()))
print("step value:", ckpt["opt"]["state"][0]["step"], type(ckpt["opt"]["state"][0]["step"]).__name__)
print("group keys:", sorted(ckpt["opt"]["param_groups"][0].keys()))
print("sched keys:", sorted(k for k in ckpt["sched"] if not k.startswith("_")))
print("sched last_epoch:", ckpt["sched"]["last_epoch"], "total_steps:", ckpt["sched"]["total_steps"])

model2, opt2, sched2 = build()
model2.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["opt"])
sched2.load_state_dict(ckpt["sched"])
print("lr after load:", [f"{lr:.6f}" for lr in sched2.get_last_lr()], f"{opt2.param_groups[0]['lr']:.6f}")
print("max_exp_avg_sq shape:", tuple(opt2.state[model2[0].weight]["max_exp_avg_sq"].shape))
rest = [step(model2, opt2, sched2) for _ in range(ckpt["step"], 20)]
resumed = first + rest
print("resumed:      ", [f"{l:.5f}" for l in resumed[::4]])
print("identical:", resumed == full)
print("max diff:", max(abs(a - b) for a, b in zip(resumed, full)))
print("final weights equal:", all(torch.equal(a, b) for a, b in zip(ref_model.parameters(), model2.parameters())))

# a checkpoint that only holds the model: optimizer restarts -> trajectory differs
model3, opt3, sched3 = build()
model3.load_state_dict(copy.deepcopy(ckpt["model"]))
rest3 = [step(model3, opt3, sched3) for _ in range(8, 20)]
print("fresh optimizer differs:", rest3 != rest)
print("final lr:", f"{sched2.get_last_lr()[0]:.8f}", "last_epoch:", sched2.last_epoch)
try:
    sched2.step()
except ValueError as e:
    print(type(e).__name__, e)
