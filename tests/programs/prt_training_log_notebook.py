# A notebook training log for a 3-class classifier: printoptions(precision=3) for the session,
# printing logits/probabilities/grads per epoch, an int64 confusion matrix, per-class accuracy with
# nan for an empty class, and restoring the defaults at the end.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=3, sci_mode=False)
x = torch.stack([torch.linspace(-2, 2, 12), torch.cos(torch.linspace(0, 6, 12))], dim=1)
y = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0])

model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(12):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    if epoch % 4 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")
        print("logits[:3]", logits[:3])
        print("probs[:3]", logits[:3].softmax(-1))
        print("grad of last bias", model[2].bias.grad)
    opt.step()

with torch.no_grad():
    pred = model(x).argmax(1)
print("pred", pred)
print("correct", pred == y)
conf = torch.zeros(3, 3, dtype=torch.long)
for t, p in zip(y, pred):
    conf[t, p] += 1
print(conf)
per_class = conf.diag() / conf.sum(1)
print("per-class acc", per_class)
print("mean acc ignoring nan", per_class.nanmean())
print(f"acc {(pred == y).float().mean():.2%}")
print({"loss": round(loss.item(), 3), "acc": (pred == y).float().mean()})
print(model[0].weight)
print(model[0].weight.grad.norm(), model[0].weight.grad.abs().max())
torch.set_printoptions(profile="default")
print(model[2].bias)
print(torch.tensor([1 / 3, 2 / 3]))
