# CPU fallback of a mixed-precision training loop: precision="32" makes the trainer build
# torch.amp.GradScaler("cpu", enabled=False) and autocast(enabled=False); the scaler calls become
# pass-throughs (scale returns the loss, unscale_ + clip, step, update, state_dict) and the run
# matches a plain fp32 loop exactly. Also inspects autocast state queries on CPU.
import torch
import torch.nn as nn
import torch.nn.functional as F


def make():
    m = nn.Sequential(nn.Linear(3, 5), nn.GELU(), nn.Linear(5, 2))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float32).sin() * 0.5 + 0.1 * i).view_as(p))
    return m, torch.optim.AdamW(m.parameters(), lr=0.01)


x = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(0, 2, 8).cos(), torch.arange(8.0) / 8], 1)
target = torch.stack([x[:, 0] * 2, x[:, 1] - x[:, 2]], 1)


def amp_loop(steps=6):
    model, opt = make()
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False):
            out = model(x)
            inside = (torch.is_autocast_enabled("cpu"), out.dtype)
            loss = F.mse_loss(out, target)
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.unscale_(opt)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(opt)
        scaler.update()
        losses.append(round(loss.item(), 6))
    return losses, scaler, scaled is loss, inside, norm


def plain_loop(steps=6):
    model, opt = make()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        losses.append(round(loss.item(), 6))
    return losses


amp_losses, scaler, same_obj, inside, norm = amp_loop()
print("amp losses:  ", amp_losses)
print("plain losses:", plain_loop())
print("identical:", amp_losses == plain_loop())
print("scale returned same tensor:", same_obj)
print("inside autocast(enabled=False):", inside)
print("last grad norm:", f"{norm.item():.5f}", norm.dtype, norm.shape)
print("is_enabled:", scaler.is_enabled(), "get_scale:", scaler.get_scale())
print("state_dict:", scaler.state_dict())
multi = scaler.scale([torch.tensor(1.5), torch.tensor(2.0)])
print("scale list passthrough:", multi)

enabled = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=3)
print("enabled scaler:", enabled.is_enabled(), enabled.get_scale(), sorted(enabled.state_dict()))
print("scaled loss:", enabled.scale(torch.tensor(0.25)))
print("growth factor:", enabled.get_growth_factor(), "backoff:", enabled.get_backoff_factor(),
      "interval:", enabled.get_growth_interval())
enabled.set_growth_factor(3.0)
print("state after set:", enabled.state_dict())
print("default autocast state:", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu", dtype=torch.float16, enabled=False):
    print("inside disabled:", torch.is_autocast_enabled("cpu"), torch.get_autocast_dtype("cpu"))
print("after:", torch.is_autocast_enabled("cpu"))


@torch.autocast(device_type="cpu", enabled=False)
def decorated(a):
    return a @ a.T, torch.is_autocast_enabled("cpu")


r, flag = decorated(x[:2])
print("decorated:", r.dtype, flag, r.shape)
