# A compiled model switching between train() and eval() with BatchNorm and Dropout; the compiled
# model called under no_grad first, then with grad; running stats updated through compile.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(p=0.5)
        self.out = nn.Linear(4, 1)

    def forward(self, x):
        h = torch.relu(self.bn(self.fc(x)))
        return self.out(self.drop(h))


model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view(p.shape) * 0.6)
x = torch.linspace(-1, 1, 18).view(6, 3)
cmodel = torch.compile(model)

# eval first, under no_grad: deterministic, running stats untouched
cmodel.eval()
with torch.no_grad():
    y_eval = cmodel(x)
print(y_eval.requires_grad, y_eval.shape)
print(y_eval.squeeze(1))
print(model.bn.running_mean, model.bn.num_batches_tracked)

# the same compiled model, with grad, still in eval
y = cmodel(x)
print(y.requires_grad)
y.sum().backward()
print(model.out.weight.grad)
print(torch.allclose(y, y_eval))

# train mode: BatchNorm uses batch statistics and updates running stats
model.zero_grad()
cmodel.train()
print(model.training, model.bn.training, model.drop.training, cmodel.training)
model.drop.p = 0.0     # make dropout a no-op so the output is deterministic
y_train = cmodel(x)
print(y_train.squeeze(1))
print(model.bn.running_mean)
print(model.bn.running_var)
print(model.bn.num_batches_tracked)
y_train.pow(2).mean().backward()
print(model.fc.weight.grad.abs().max() < 1e-4)   # batch statistics cancel the first layer's grad
print(model.bn.weight.grad, model.bn.bias.grad)

# back to eval: running stats are now used
cmodel.eval()
with torch.no_grad():
    print(cmodel(x).squeeze(1))
    print(model(x).squeeze(1))

# dropout with p=1 zeroes everything in train, nothing in eval
model.drop.p = 1.0
cmodel.train()
print(cmodel(x).squeeze(1))
cmodel.eval()
print(torch.allclose(cmodel(x), model(x)))

model.drop.p = 0.0
print(cmodel(x).squeeze(1))
