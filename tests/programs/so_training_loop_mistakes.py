# StackOverflow: training-loop mistakes — forgetting zero_grad, loss under no_grad, grads of None,
# "element 0 of tensors does not require grad", step() before backward, inplace ReLU, and fixes.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


def make_model():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    with torch.no_grad():
        model[0].weight.copy_(torch.tensor([[0.5, -0.2], [0.1, 0.4], [-0.3, 0.8]]))
        model[0].bias.copy_(torch.tensor([0.1, 0.0, -0.1]))
        model[2].weight.copy_(torch.tensor([[1.0, -1.0, 0.5]]))
        model[2].bias.fill_(0.2)
    return model


X = torch.tensor([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.5], [2.0, 0.0]])
Y = torch.tensor([[1.0], [0.0], [0.5], [1.5]])

# Q: loss stays the same / grads explode: forgot optimizer.zero_grad()
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    print("no zero_grad", step, round(loss.item(), 4), model[2].bias.grad)
    opt.step()
model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    print("with zero_grad", step, round(loss.item(), 4), model[2].bias.grad)

# Q: grads are None after zero_grad() (set_to_none=True is the default)
opt.zero_grad()
print("after zero_grad:", model[0].weight.grad)
opt.zero_grad(set_to_none=False)
print("set_to_none=False:", model[0].bias.grad)
F.mse_loss(model(X), Y).backward()
opt.zero_grad(set_to_none=False)
print("zeroed in place:", model[0].bias.grad)
fresh = torch.ones(2, requires_grad=True)
attempt("grad.zero_() before backward", lambda: fresh.grad.zero_())
attempt("step with no grads", lambda: torch.optim.SGD([fresh], lr=0.1).step())
print(fresh)

# Q: "element 0 of tensors does not require grad and does not have a grad_fn"
with torch.no_grad():
    eval_loss = F.mse_loss(model(X), Y)
attempt("backward under no_grad", lambda: eval_loss.backward())
detached = model(X).detach()
attempt("detached output", lambda: F.mse_loss(detached, Y).backward())
attempt("argmax output", lambda: model(X).argmax().float().backward())
attempt("rebuilt tensor", lambda: torch.tensor(model(X).tolist()).sum().backward())
attempt("round output", lambda: torch.round(model(X)).sum().backward())
print(model[0].bias.grad)
for p in model.parameters():
    p.requires_grad_(False)
attempt("frozen model", lambda: model(X).sum().backward())

# Q: ReLU(inplace=True) after sigmoid — "modified by an inplace operation"
x = torch.tensor([[0.2, -0.4]], requires_grad=True)
h = torch.sigmoid(x)
out = nn.ReLU(inplace=True)(h)
attempt("inplace relu after sigmoid", lambda: out.sum().backward())
h = torch.sigmoid(x)
out = nn.ReLU()(h)
out.sum().backward()
print("fixed:", x.grad)

# Q: loss.item() vs accumulating the tensor (graph kept alive)
model = make_model()
total = 0
for i in range(2):
    total += F.mse_loss(model(X[i:i + 1]), Y[i:i + 1])
print(type(total).__name__, total.grad_fn.name())
total_f = sum(F.mse_loss(model(X[i:i + 1]), Y[i:i + 1]).item() for i in range(2))
print(type(total_f).__name__, round(total_f, 4))
