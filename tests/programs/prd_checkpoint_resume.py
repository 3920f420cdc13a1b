# Checkpoint save/resume: model+optimizer+scheduler+rng state dict to BytesIO, load with map_location and weights_only.
import io
import torch
import torch.nn as nn

def make_model():
    m = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.5)
    return m

X = torch.linspace(-1, 1, 24).reshape(8, 3)
Y = X.sum(dim=1, keepdim=True) ** 2
model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
print(f"loss before save {loss.item():.5f}", sched.get_last_lr())

buf = io.BytesIO()
torch.save({"epoch": 5, "model": model.state_dict(), "optimizer": opt.state_dict(),
            "scheduler": sched.state_dict(), "rng": torch.get_rng_state(), "best": 0.25}, buf)
buf.seek(0)
ckpt = torch.load(buf, map_location="cpu", weights_only=True)
print(sorted(ckpt.keys()), ckpt["epoch"], ckpt["best"])
print(list(ckpt["model"].keys()))
print(sorted(ckpt["optimizer"].keys()), ckpt["optimizer"]["param_groups"][0]["lr"])
print(ckpt["scheduler"]["last_epoch"], ckpt["scheduler"]["_last_lr"])
print(ckpt["rng"].dtype, torch.equal(ckpt["rng"], torch.get_rng_state()))

model2 = make_model()
opt2 = torch.optim.Adam(model2.parameters(), lr=0.05)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=3, gamma=0.5)
missing = model2.load_state_dict(ckpt["model"])
print(missing)
opt2.load_state_dict(ckpt["optimizer"])
sched2.load_state_dict(ckpt["scheduler"])
torch.set_rng_state(ckpt["rng"])
print(opt2.state_dict()["state"][0]["step"], sched2.get_last_lr())
for step in range(3):
    for m, o, s in ((model, opt, sched), (model2, opt2, sched2)):
        o.zero_grad()
        l = nn.functional.mse_loss(m(X), Y)
        l.backward()
        o.step()
        s.step()
    print(step, f"{l.item():.5f}", all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))

buf2 = io.BytesIO()
torch.save(model, buf2)
buf2.seek(0)
try:
    torch.load(buf2, weights_only=True)
except Exception as e:
    print(type(e).__name__)
buf2.seek(0)
whole = torch.load(buf2, weights_only=False, map_location=torch.device("cpu"))
print(type(whole).__name__, len(whole))
sd = model.state_dict()
res = model2.load_state_dict({k: v for k, v in sd.items() if "2." not in k}, strict=False)
print(res.missing_keys, res.unexpected_keys)
