# The logging lines of a typical training loop: printing losses (with their grad_fn), accumulating
# running loss the right and the wrong way, accuracy arithmetic, and formatting metrics for humans.
import numpy as np
import torch
import torch.nn.functional as F

X = torch.linspace(-1, 1, 12).view(6, 2)
y = torch.tensor([0, 1, 0, 1, 1, 0])
model = torch.nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25], [-0.75, 1.0]]))
    model.bias.copy_(torch.tensor([0.1, -0.1]))
opt = torch.optim.SGD(model.parameters(), lr=0.5)

running_tensor = 0.0
running_float = 0.0
history = []
for epoch in range(3):
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    running_tensor += loss          # keeps the graph alive -- a classic mistake
    running_float += loss.item()
    history.append(loss.detach())
    acc = (logits.argmax(1) == y).float().mean()
    print(f"epoch {epoch} | loss {loss:.4f} | acc {acc:.2%} | {loss.item():.6f}")
    print("epoch", epoch, "loss", loss, "acc", acc.item(), round(loss.item(), 4))
print(running_tensor, type(running_tensor).__name__, running_tensor.grad_fn.name())
print(round(running_float / 3, 5), running_tensor / 3, round((running_tensor / 3).item(), 5))
print(torch.stack(history), torch.tensor(history), torch.tensor([h.item() for h in history]).mean())
print(np.mean([h.item() for h in history]).round(5), np.round(torch.stack(history).numpy(), 3), torch.stack(history).numpy().round(5))
print(str(torch.stack(history).numpy().round(2)), [round(v, 6) for v in torch.stack(history).tolist()])

mse = F.mse_loss(model(X)[:, 0], y.float())
bce = F.binary_cross_entropy_with_logits(model(X)[:, 1], y.float())
nll = F.nll_loss(F.log_softmax(model(X), dim=1), y)
l1 = F.l1_loss(model(X)[:, 0], y.float(), reduction="sum")
smooth = F.smooth_l1_loss(model(X)[:, 0], y.float())
total = mse + 0.5 * bce
print(mse, bce, nll, l1, smooth)
print(total, total / 2, total * 2, -total, total ** 2, total.sqrt(), total.mean(), round(total.item(), 6))
print(mse.grad_fn.next_functions, total.grad_fn.next_functions[1][0].name())
with torch.no_grad():
    val = F.cross_entropy(model(X), y)
print(val, val.requires_grad, f"{val.item():.6f}", "{:8.3f}|".format(val.item()), f"{val:>10.4f}|")
print(f"{model.weight.grad.abs().max():.3e}", model.weight.grad.norm(), model.weight.grad.norm().item() > 0)
print(f"lr={opt.param_groups[0]['lr']} params={sum(p.numel() for p in model.parameters())}")
print([f"{p:.3f}" for p in model.weight.flatten()], [round(p, 3) for p in model.bias.tolist()])
print(torch.softmax(model(X), 1).detach().numpy().round(3).tolist()[:2])
print(model.weight, model.bias.data, model.bias.grad)
