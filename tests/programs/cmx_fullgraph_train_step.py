# Compiling a whole training step (and a fullgraph=True eval loss) (forward, backward, AdamW step, zero_grad),
# a pattern from "speed up your training loop" posts; the loss is returned detached.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = TinyClassifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape) * 0.5)

opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
x = torch.stack([torch.linspace(-1, 1, 12), torch.cos(torch.linspace(0, 3, 12)),
                 torch.linspace(0, 1, 12) ** 2, torch.sin(torch.linspace(0, 6, 12))], dim=1)
y = torch.tensor([0, 1, 2] * 4)


@torch.compile(fullgraph=True)
def eval_loss(x, y):
    return F.cross_entropy(model(x), y)


@torch.compile
def train_step(x, y):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    return loss.detach()


losses = []
for step in range(25):
    loss = train_step(x, y)
    losses.append(loss.item())
    if step % 6 == 0:
        print(f"step {step} loss {loss.item():.4f} requires_grad={loss.requires_grad}")
print(losses[-1] < losses[0])
with torch.no_grad():
    print(f"eval loss {eval_loss(x, y).item():.4f}")
print([p.grad is None for p in model.parameters()])
print(sorted(opt.state_dict()["state"].keys()))
print(opt.state_dict()["state"][0]["step"])

with torch.no_grad():
    acc = (model(x).argmax(1) == y).float().mean()
print(f"accuracy {acc.item():.2f}")
