# Evaluation loop boilerplate: @torch.inference_mode() decorator, model.eval()/train() flags, no_grad accuracy.
import time
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.bn = nn.BatchNorm1d(16)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(self.drop(torch.relu(self.bn(self.fc1(x)))))

model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.5)
X = torch.stack([torch.sin(torch.arange(30.0) * 0.1 * (k + 1)) for k in range(4)], dim=1)
y = torch.arange(30) % 3

@torch.inference_mode()
def evaluate(model, X, y):
    model.eval()
    logits = model(X)
    pred = logits.argmax(dim=1)
    return (pred == y).float().mean().item(), logits

@torch.no_grad()
def evaluate_ng(model, X):
    model.eval()
    return model(X)

start = time.perf_counter()
acc, logits = evaluate(model, X, y)
elapsed = time.perf_counter() - start
print("timed:", elapsed >= 0)
print(f"acc {acc:.4f}", logits.requires_grad, logits.is_inference(), model.training)
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
out2 = evaluate_ng(model, X)
print(out2.requires_grad, out2.is_inference(), torch.allclose(out2, logits))
try:
    logits.add_(1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
try:
    (logits * 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:50])

model.train()
print(model.training, model.bn.training, model.drop.training)
print(model.bn.num_batches_tracked, model.bn.running_mean[:3])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    model.drop.p = 0.0
    loss = nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", model.bn.num_batches_tracked.item())
acc2, _ = evaluate(model, X, y)
print(f"acc {acc2:.4f}", model.training)
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode():
    t = torch.ones(2)
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), t.is_inference())
