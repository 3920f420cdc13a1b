# Graph breaks users hit: print() and .item() inside a compiled function, data-dependent branches,
# a compiled loss function used with an eager model, and values read from globals/attributes.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile
def debug_step(x):
    y = x * 2
    print("inside, shape", tuple(y.shape), "sum", y.sum().item())
    return y.relu()


print(debug_step(torch.tensor([-1.0, 0.5, 2.0])))
print(debug_step(torch.tensor([3.0, -4.0])))


@torch.compile
def clip_if_large(x):
    if x.norm().item() > 5.0:        # data-dependent branch via .item()
        return x / x.norm()
    return x


print(clip_if_large(torch.tensor([3.0, 4.0])))
print(clip_if_large(torch.tensor([6.0, 8.0])))
t = torch.tensor([6.0, 8.0], requires_grad=True)
clip_if_large(t).sum().backward()
print(t.grad)


@torch.compile
def sign_branch(x):
    if x.sum() > 0:                  # tensor used as a bool
        return x * 10
    return -x


print(sign_branch(torch.tensor([1.0, 2.0])), sign_branch(torch.tensor([-1.0, -2.0])))


@torch.compile
def smooth_l1_loss(pred, target, beta=1.0):
    diff = (pred - target).abs()
    loss = torch.where(diff < beta, 0.5 * diff ** 2 / beta, diff - 0.5 * beta)
    return loss.mean()


model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 4.0]])
target = torch.tensor([[1.0], [0.0], [-3.0]])
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for step in range(3):
    opt.zero_grad()
    loss = smooth_l1_loss(model(x), target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), model.weight.data, model.bias.data)
print(torch.allclose(smooth_l1_loss(model(x), target), F.smooth_l1_loss(model(x), target)))
print(round(smooth_l1_loss(model(x), target, beta=0.5).item(), 5), round(F.smooth_l1_loss(model(x), target, beta=0.5).item(), 5))

# values read from a global and from a module attribute are guarded: changing them recompiles
SCALE = 2.0


@torch.compile
def scaled(x):
    return x * SCALE


print(scaled(torch.ones(2)))
SCALE = 3.0
print(scaled(torch.ones(2)))


class Temperature(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = 1.0

    def forward(self, logits):
        return F.softmax(logits / self.t, dim=-1)


temp = Temperature()
ctemp = torch.compile(temp)
logits = torch.tensor([1.0, 2.0, 3.0])
print(ctemp(logits))
temp.t = 0.5
print(ctemp(logits))
