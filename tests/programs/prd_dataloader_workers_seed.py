# DataLoader boilerplate: generator + worker_init_fn + pin_memory; batches moved with non_blocking=True.
import random
import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

def seed_worker(worker_id):
    worker_seed = torch.initial_seed() % 2**32
    random.seed(worker_seed)

X = torch.linspace(-1, 1, 40).reshape(20, 2)
Y = (X[:, 0] * 2 - X[:, 1]).unsqueeze(1)
ds = TensorDataset(X, Y)
g = torch.Generator()
g.manual_seed(0)
loader = DataLoader(ds, batch_size=6, shuffle=True, num_workers=0, worker_init_fn=seed_worker,
                    generator=g, pin_memory=torch.cuda.is_available(), drop_last=False)
print(len(loader), loader.batch_size, loader.drop_last, loader.pin_memory)
sizes = [xb.shape[0] for xb, _ in loader]
print(sizes, sum(sizes))

g.manual_seed(0)
first = [yb.sum().item() for _, yb in loader]
g.manual_seed(0)
second = [yb.sum().item() for _, yb in loader]
print("reproducible order:", first == second)

plain = DataLoader(ds, batch_size=8, shuffle=False, pin_memory=True)
model = torch.nn.Linear(2, 1).to(device)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = torch.nn.MSELoss()
for epoch in range(4):
    total = 0.0
    for xb, yb in plain:
        xb = xb.to(device, non_blocking=True)
        yb = yb.to(device, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
    print(f"epoch {epoch} loss {total / len(ds):.4f}")
xb, yb = next(iter(plain))
print(xb.is_pinned(), xb.device, yb.shape)
print(model.weight.grad is None, model.weight.data)
