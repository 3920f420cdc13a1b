# Quick-and-dirty checkpoint that pickles whole objects (torch.save of model, optimizer and
# scheduler objects with weights_only=False): after loading, the scheduler must still drive the
# loaded optimizer (shared references survive one torch.save call), so training resumes correctly.
import io

import torch
import torch.nn as nn

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.5]]))
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(0, 1, 8)], 1)
y = x.sum(1, keepdim=True)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    sched.step()

buf = io.BytesIO()
torch.save({"model": model, "optimizer": opt, "scheduler": sched, "params": list(model.parameters())}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=False)
m2, o2, s2 = ck["model"], ck["optimizer"], ck["scheduler"]
print("scheduler drives loaded optimizer:", s2.optimizer is o2)
print("optimizer holds loaded params:", o2.param_groups[0]["params"][0] is m2.weight)
print("param list shares params:", ck["params"][0] is m2.weight)
for _ in range(3):
    o2.zero_grad()
    loss = nn.functional.mse_loss(m2(x), y)
    loss.backward()
    o2.step()
    s2.step()
    print(f"loss {loss.item():.5f} lr {o2.param_groups[0]['lr']:.4f} sched lr {s2.get_last_lr()[0]:.4f}")
