# The "compile the optimizer step" recipe: opt.step() wrapped in torch.compile, an LR scheduler
# stepping outside it (lr as a tensor so no recompiles), a manual SGD update under torch.no_grad()
# inside a compiled function, and zero_grad inside vs outside.
import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.2, -0.1, 0.4]]))
    model.bias.fill_(0.05)
X = torch.linspace(-1.0, 1.0, 12).view(4, 3)
y = X.sum(1, keepdim=True) * 0.5 - 0.25

opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.1))
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)


@torch.compile(fullgraph=False)
def opt_step():
    opt.step()


for epoch in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt_step()
    sched.step()
    print(epoch, round(loss.item(), 5), opt.param_groups[0]["lr"], model.bias.data)
print(model.weight)
state = opt.state[model.weight]
print(sorted(state), state["step"], state["exp_avg"])


# A hand-written SGD step, the whole thing compiled
w = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
data = torch.tensor([[1.0, 2.0], [2.0, 0.5], [-1.0, 1.0]])
target = torch.tensor([1.0, 2.0, -0.5])


@torch.compile
def sgd_step(lr):
    pred = data @ w + b
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.sub_(lr * w.grad)
        b.sub_(lr * b.grad)
    w.grad.zero_()
    b.grad = None
    return loss


for lr in (0.1, 0.1, 0.05):
    loss = sgd_step(lr)
    print(loss.detach(), w.detach(), b.detach(), w.grad, b.grad, w.requires_grad)


# SGD with momentum, the whole training step compiled, including zero_grad(set_to_none=True)
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).view_as(p) / 10 - 0.1)
sgd = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)


@torch.compile
def train_step(xb, yb):
    sgd.zero_grad(set_to_none=True)
    loss = nn.functional.l1_loss(net(xb), yb)
    loss.backward()
    sgd.step()
    return loss.detach()


losses = [train_step(data, target[:, None]) for _ in range(3)]
print(torch.stack(losses))
print(net[0].weight, net[2].bias, sep="\n")
print(net[2].weight.grad, sgd.state[net[2].bias]["momentum_buffer"])
