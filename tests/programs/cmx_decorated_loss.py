# torch.compile on a custom loss function (Huber + L2 penalty over the weights) used in an eager
# Adam training loop; the penalty's gradient flows back to the parameters through the compiled graph.
import torch
import torch.nn as nn


def huber_l2_eager(pred, target, weight, delta: float = 1.0, wd: float = 1e-2):
    err = pred - target
    abs_err = err.abs()
    quad = torch.clamp(abs_err, max=delta)
    lin = abs_err - quad
    huber = (0.5 * quad ** 2 + delta * lin).mean()
    return huber + wd * (weight ** 2).sum()


huber_l2_loss = torch.compile(huber_l2_eager)


lin = nn.Linear(3, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.2, -0.1, 0.05]]))
    lin.bias.fill_(0.0)
t = torch.linspace(0, 1, 30)
X = torch.stack([t, t ** 2, torch.cos(4 * t)], dim=1)
Y = (2.0 * t - 1.5 * t ** 2 + 0.3 * torch.cos(4 * t) + 0.5).unsqueeze(1)

opt = torch.optim.Adam(lin.parameters(), lr=0.1)
for step in range(30):
    opt.zero_grad()
    loss = huber_l2_loss(lin(X), Y, lin.weight)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(f"step {step:2d} loss {loss.item():.4f}")

print(loss.requires_grad, loss.grad_fn is not None, loss.shape)
print(torch.round(lin.weight.detach(), decimals=3), round(lin.bias.item(), 3))

# a different delta is a new Python constant: recompiles, values stay right
with torch.no_grad():
    print(0.1, f"{huber_l2_loss(lin(X), Y, lin.weight, delta=0.1).item():.4f}")

# gradient through the compiled loss versus the same loss eager
pred = torch.linspace(-2, 2, 5, requires_grad=True)
target = torch.zeros(5)
w = torch.ones(2, requires_grad=True)
huber_l2_loss(pred, target, w, delta=1.0).backward()
print(pred.grad, w.grad)
pred2 = pred.detach().clone().requires_grad_()
w2 = w.detach().clone().requires_grad_()
huber_l2_eager(pred2, target, w2).backward()
print(torch.allclose(pred.grad, pred2.grad), torch.allclose(w.grad, w2.grad))
