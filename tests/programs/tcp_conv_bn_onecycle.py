# A small CNN (Conv2d + BatchNorm2d + MaxPool2d) compiled with mode="max-autotune-no-cudagraphs",
# trained with SGD+nesterov and OneCycleLR, then evaluated in eval mode (running stats).
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.relu(self.conv2(x))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return self.fc(x)


model = SmallCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.4)

grid = torch.linspace(-1, 1, 8)
imgs = []
for k in range(8):
    yy, xx = torch.meshgrid(grid, grid, indexing="ij")
    img = torch.sin(3 * xx + k) if k % 2 == 0 else torch.cos(3 * yy + k)
    imgs.append(img)
X = torch.stack(imgs).unsqueeze(1)
Y = torch.tensor([0, 1] * 4)

cmodel = torch.compile(model, mode="max-autotune-no-cudagraphs")
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=12)

for step in range(12):
    opt.zero_grad()
    loss = F.cross_entropy(cmodel(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.5f}")

print("running_mean", torch.round(model.bn1.running_mean, decimals=3))
print("running_var", torch.round(model.bn1.running_var, decimals=3))
print("num_batches_tracked", model.bn1.num_batches_tracked.item())

cmodel.eval()
with torch.no_grad():
    logits = cmodel(X)
    ref = model(X)
print(torch.allclose(logits, ref, atol=1e-5), logits.argmax(1).tolist())
print("still", model.bn1.num_batches_tracked.item())
print([k for k in cmodel.state_dict() if k.startswith("_orig_mod.bn1")])
