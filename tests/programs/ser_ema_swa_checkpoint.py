# Keeping an exponential moving average (EMA) of the weights: a hand-written deepcopy EMA and
# torch.optim.swa_utils.AveragedModel with get_ema_multi_avg_fn, both saved in the checkpoint.
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
        for s, b in zip(self.shadow.buffers(), model.buffers()):
            s.copy_(b)


model = nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.GELU(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p) * 0.5)
ema = EMA(model)
swa = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
print(type(swa.module).__name__, swa.n_averaged)
print(list(swa.state_dict().keys())[:3], list(swa.state_dict().keys())[-1])

opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 16).view(8, 2)
y = torch.sin(3 * x[:, :1]) + x[:, 1:]
for step in range(12):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    ema.update(model)
    swa.update_parameters(model)
    if step % 4 == 3:
        print(step, f"{loss.item():.4f}")

print(swa.n_averaged)
print(all(not p.requires_grad for p in ema.shadow.parameters()), ema.shadow.training)
model.eval()
swa.eval()
with torch.no_grad():
    print(f"{F.mse_loss(model(x), y).item():.4f} {F.mse_loss(ema.shadow(x), y).item():.4f} {F.mse_loss(swa(x), y).item():.4f}")
diff = max((a - b).abs().max().item() for a, b in zip(ema.shadow.parameters(), swa.module.parameters()))
print("ema vs swa close:", diff < 1e-2)

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "ema": ema.shadow.state_dict(), "swa": swa.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
swa2 = AveragedModel(nn.Sequential(nn.Linear(2, 8), nn.BatchNorm1d(8), nn.GELU(), nn.Linear(8, 1)),
                     multi_avg_fn=get_ema_multi_avg_fn(0.9))
print(swa2.load_state_dict(ck["swa"]), swa2.n_averaged)
restored = copy.deepcopy(model)
print(restored.load_state_dict(ck["ema"]))
print(torch.equal(restored[3].weight, ema.shadow[3].weight), restored[1].num_batches_tracked)
