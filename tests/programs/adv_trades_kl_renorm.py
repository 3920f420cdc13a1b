# TRADES-style robust training: the attack maximises KL(f(x) || f(x')) with F.kl_div(log_softmax,
# softmax, reduction="batchmean"), L2 steps normalised with Tensor.renorm / F.normalize, the
# perturbation kept in .data, and the combined natural + beta * robust loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4)

model = nn.Sequential(nn.Linear(3, 10), nn.ELU(), nn.Linear(10, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 0.4 * i).view_as(p) * 0.7)

t = torch.linspace(0, 2 * 3.14159, 24)
X = torch.stack([torch.cos(t), torch.sin(t), torch.cos(2 * t) * 0.5], 1)
Y = (t / (2 * 3.14159) * 3).long().clamp(max=2)
criterion_kl = nn.KLDivLoss(reduction="sum")


def trades_adv(model, x, step_size=0.05, epsilon=0.3, steps=4):
    model.eval()
    # deterministic "random" start instead of 0.001 * randn
    x_adv = x.detach() + 0.001 * torch.sin(torch.arange(x.numel(), dtype=torch.float32)).view_as(x)
    p_nat = F.softmax(model(x), dim=1).detach()
    for _ in range(steps):
        x_adv.requires_grad_()
        with torch.enable_grad():
            loss_kl = criterion_kl(F.log_softmax(model(x_adv), dim=1), p_nat)
        grad = torch.autograd.grad(loss_kl, [x_adv])[0]
        grad = F.normalize(grad, p=2, dim=1)
        x_adv = x_adv.detach() + step_size * grad
        delta = (x_adv - x).renorm(p=2, dim=0, maxnorm=epsilon)
        x_adv = (x + delta).detach()
    model.train()
    return x_adv


opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
beta = 3.0
for epoch in range(25):
    x_adv = trades_adv(model, X)
    opt.zero_grad()
    logits = model(X)
    loss_nat = F.cross_entropy(logits, Y)
    loss_rob = F.kl_div(F.log_softmax(model(x_adv), dim=1), F.softmax(logits, dim=1), reduction="batchmean")
    loss = loss_nat + beta * loss_rob
    loss.backward()
    opt.step()
    if epoch % 5 == 0 or epoch == 24:
        print(f"epoch {epoch:2d} nat {loss_nat.item():.4f} rob {loss_rob.item():.4f} total {loss.item():.4f}")

with torch.no_grad():
    acc = (model(X).argmax(1) == Y).float().mean().item()
x_adv = trades_adv(model, X)
with torch.no_grad():
    rob_acc = (model(x_adv).argmax(1) == Y).float().mean().item()
    d = (x_adv - X).norm(dim=1)
print(f"clean {acc:.3f} robust {rob_acc:.3f} max |delta| {d.max().item():.3f}")

v = torch.tensor([[3.0, 4.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.0, 0.0]])
print(v.renorm(2, 0, 1.0))
print(torch.renorm(v, p=1, dim=0, maxnorm=0.5))
print(F.normalize(v, dim=1))
print(F.normalize(v, p=float("inf"), dim=0))
print(F.kl_div(torch.log(torch.tensor([[0.5, 0.5]])), torch.tensor([[0.9, 0.1]]), reduction="batchmean"))
print(F.kl_div(torch.tensor([[-1.0, -2.0]]), torch.tensor([[-0.1, -2.3]]), reduction="sum", log_target=True))
print(F.kl_div(torch.log(torch.tensor([[0.5, 0.5]])), torch.tensor([[1.0, 0.0]]), reduction="none"))
