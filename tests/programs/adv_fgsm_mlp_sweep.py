# FGSM (Goodfellow et al.) against a small MLP classifier: x.requires_grad_(), loss.backward(),
# x.grad.sign(), clamp to the valid range, and an epsilon sweep reporting robust accuracy.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def init_weights(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view_as(p) * 0.6)


def fgsm_attack(model, x, y, eps):
    x_adv = x.clone().detach().requires_grad_(True)
    loss = F.cross_entropy(model(x_adv), y)
    model.zero_grad()
    loss.backward()
    grad_sign = x_adv.grad.sign()
    x_adv = x_adv + eps * grad_sign
    return torch.clamp(x_adv, 0, 1).detach()


t = torch.linspace(0, 1, 60)
X = torch.stack([t, (torch.sin(9 * t) + 1) / 2], dim=1)
Y = ((X[:, 0] * 3).long().clamp(max=2))

model = MLP()
init_weights(model)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(40):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    clean_acc = (model(X).argmax(1) == Y).float().mean().item()
print(f"clean accuracy {clean_acc:.3f}")

for eps in [0.0, 0.02, 0.05, 0.1, 0.2]:
    x_adv = fgsm_attack(model, X, Y, eps)
    with torch.no_grad():
        pred = model(x_adv).argmax(dim=1)
    acc = (pred == Y).float().mean().item()
    linf = (x_adv - X).abs().max().item()
    print(f"eps={eps:.2f} robust acc={acc:.3f} linf={linf:.3f}")

x0 = X[:4].clone().requires_grad_()
out = model(x0)
loss = F.cross_entropy(out, Y[:4], reduction="sum")
loss.backward()
print(x0.grad.sign())
print(x0.grad.shape, x0.grad.dtype, x0.is_leaf, out.grad_fn.name())
# targeted FGSM: step against the gradient toward a target class
target = torch.full((4,), 2, dtype=torch.long)
xt = X[:4].clone().requires_grad_(True)
F.cross_entropy(model(xt), target).backward()
with torch.no_grad():
    xt_adv = (xt - 0.3 * xt.grad.sign()).clamp_(0, 1)
print(model(xt_adv).argmax(1).tolist(), model(X[:4]).argmax(1).tolist())
print(torch.round(xt_adv, decimals=3))
