# A seeded training run, as tutorials write it: random data, a freshly initialised MLP with
# dropout, SGD with momentum. With the same seed, PyTorch's generator gives the same data,
# weights, dropout masks and shuffles, so the printed numbers are reproducible across runs.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(64, 10)
true_w = torch.randn(10, 1)
y = (x @ true_w + 0.1 * torch.randn(64, 1) > 0).float()

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 1))
print("first weights:", model[0].weight[0, :4])
print("first bias:", model[3].bias)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(5):
    order = torch.randperm(64)
    total = 0.0
    for start in range(0, 64, 16):
        batch = order[start:start + 16]
        optimizer.zero_grad()
        loss = loss_fn(model(x[batch]), y[batch])
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / 4:.4f}")

model.eval()
with torch.no_grad():
    accuracy = ((model(x) > 0).float() == y).float().mean()
print(f"accuracy {accuracy:.4f}")
print("uniform draws:", torch.rand(3))
print("integers:", torch.randint(0, 100, (6,)))
g = torch.Generator().manual_seed(42)
print("own generator:", torch.randn(4, generator=g))
