# Recommender-style model with nn.Embedding(sparse=True): the optimizers that accept sparse
# gradients (SGD with momentum, Adagrad, SparseAdam) and the errors from the ones that do not.
import torch
import torch.nn as nn


class MF(nn.Module):
    def __init__(self, users=4, items=6, dim=2):
        super().__init__()
        self.u = nn.Embedding(users, dim, sparse=True)
        self.i = nn.Embedding(items, dim, sparse=True)
        with torch.no_grad():
            self.u.weight.copy_(torch.cos(torch.arange(users * dim, dtype=torch.float32)).reshape(users, dim) * 0.5)
            self.i.weight.copy_(torch.sin(torch.arange(items * dim, dtype=torch.float32)).reshape(items, dim) * 0.5)

    def forward(self, users, items):
        return (self.u(users) * self.i(items)).sum(-1)


users = torch.tensor([0, 1, 1, 3, 0])
items = torch.tensor([2, 2, 5, 0, 2])
ratings = torch.tensor([1.0, 0.5, -0.5, 0.8, 1.0])

configs = [
    ("SGD", lambda ps: torch.optim.SGD(ps, lr=0.1)),
    ("SGD momentum", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)),
    ("SGD nesterov", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.5, nesterov=True)),
    ("Adagrad", lambda ps: torch.optim.Adagrad(ps, lr=0.2)),
    ("Adagrad lr_decay", lambda ps: torch.optim.Adagrad(ps, lr=0.2, lr_decay=0.1, initial_accumulator_value=0.1)),
    ("SparseAdam", lambda ps: torch.optim.SparseAdam(ps, lr=0.05)),
]
for name, make in configs:
    model = MF()
    opt = make(list(model.parameters()))
    for step in range(5):
        opt.zero_grad()
        loss = ((model(users, items) - ratings) ** 2).mean()
        loss.backward()
        opt.step()
    print(f"{name:18s} loss {loss.item():.4f}")
    print("  users", [round(v, 4) for v in model.u.weight.detach().flatten().tolist()])
    print("  items", [round(v, 4) for v in model.i.weight.detach().flatten().tolist()])
    st = opt.state[model.i.weight]
    print("  state", {k: (v.layout, tuple(v.shape)) if torch.is_tensor(v) else v for k, v in st.items()})

for cls in [torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.NAdam,
            torch.optim.Adamax, torch.optim.Adadelta, torch.optim.RAdam, torch.optim.Rprop,
            torch.optim.ASGD]:
    model = MF()
    opt = cls(model.parameters())
    model(users, items).sum().backward()
    try:
        opt.step()
    except RuntimeError as e:
        print(cls.__name__, "RuntimeError:", e)

model = MF()
opt = torch.optim.Adagrad(model.parameters(), weight_decay=0.01)
model(users, items).sum().backward()
try:
    opt.step()
except RuntimeError as e:
    print("Adagrad weight_decay RuntimeError:", e)
