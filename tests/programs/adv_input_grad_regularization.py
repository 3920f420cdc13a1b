# Input-gradient regularisation (double backpropagation, Ross & Doshi-Velez): the loss includes
# ||d CE / d x||^2 computed with create_graph=True, so training differentiates through the
# gradient of a small CNN (conv, batchnorm, max-pool, log-softmax) a second time.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3, padding=1, bias=False)  # BatchNorm follows
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Linear(3 * 3 * 3, 2)

    def forward(self, x):
        x = F.max_pool2d(F.softplus(self.bn(self.conv(x))), 2)
        return self.fc(x.flatten(1))


model = CNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + i).view_as(p) * 0.5)
    model.bn.weight.fill_(1.0)
    model.bn.bias.zero_()

g = torch.linspace(-1, 1, 6)
X = torch.stack([torch.outer(g * (k % 3 + 1) / 3 + 0.1 * k, torch.cos(g * (k + 1)) + 0.07 * torch.arange(6.0))
                 + 0.03 * torch.sin(torch.arange(36.0) * (k + 2)).view(6, 6) for k in range(8)]).unsqueeze(1)
Y = torch.tensor([k % 2 for k in range(8)])
opt = torch.optim.Adam(model.parameters(), lr=0.02)
lam = 0.5

for step in range(20):
    x = X.clone().requires_grad_(True)
    ce = F.cross_entropy(model(x), Y)
    grad_x, = torch.autograd.grad(ce, x, create_graph=True)
    penalty = grad_x.pow(2).sum(dim=(1, 2, 3)).mean()
    loss = ce + lam * penalty
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0 or step == 19:
        print(f"step {step:2d} ce {ce.item():.4f} grad-penalty {penalty.item():.6f}")

print(grad_x.requires_grad, grad_x.grad_fn is not None, x.grad is None)
print(model.conv.weight.grad.shape, model.bn.weight.grad is not None)

# second derivative sanity: gradient of the penalty w.r.t. the input via another autograd.grad
model.eval()
x = X[:2].clone().requires_grad_(True)
ce = F.cross_entropy(model(x), Y[:2])
gx, = torch.autograd.grad(ce, x, create_graph=True)
hx, = torch.autograd.grad(gx.pow(2).sum(), x, retain_graph=True)
print(hx.shape, f"{hx.abs().max().item():.5f}")
# compare one entry of Hessian-vector product with a finite difference of the gradient
v = torch.sin(torch.arange(x.numel(), dtype=torch.float32)).view_as(x)
hv, = torch.autograd.grad((gx * v).sum(), x, retain_graph=True)
eps = 1e-3
with torch.enable_grad():
    xp = (X[:2] + eps * v).requires_grad_(True)
    gp, = torch.autograd.grad(F.cross_entropy(model(xp), Y[:2]), xp)
    xm = (X[:2] - eps * v).requires_grad_(True)
    gm, = torch.autograd.grad(F.cross_entropy(model(xm), Y[:2]), xm)
fd = (gp - gm) / (2 * eps)
rel = ((hv - fd).norm() / hv.norm()).item()
print(f"hvp matches finite difference: {rel < 0.05}")
try:
    torch.autograd.grad(gx.sum(), x)
    torch.autograd.grad(gx.sum(), x)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:60])
