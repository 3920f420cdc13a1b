# train()/eval() effects and freezing in a fine-tuning loop: BatchNorm running stats
# (momentum=None cumulative average, track_running_stats=False), Dropout scaling, a frozen
# backbone in eval mode, optimizer over trainable params only, and gradient accumulation
# checked against the full-batch gradient.
import torch
import torch.nn as nn

x = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0], [2.0, 0.5, -0.5], [-1.0, 1.0, 1.0]])
t = torch.tensor([[1.0], [0.0], [2.0], [-1.0]])

bn = nn.BatchNorm1d(3, momentum=None)
for k in range(3):
    bn(x * (k + 1))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x[:2]))
bn2 = nn.BatchNorm1d(3, track_running_stats=False)
print(bn2.running_mean, bn2.num_batches_tracked, bn2)
bn2.eval()
print(bn2(x))
print(sorted(bn2.state_dict().keys()))
try:
    nn.BatchNorm1d(3)(x[:1])
except ValueError as e:
    print(type(e).__name__, e)
print(nn.BatchNorm1d(3).eval()(x[:1]))

drop = nn.Dropout(p=1.0)
print(drop(x[0]), drop.eval()(x[0]))
print(nn.Dropout(p=0.0)(x[0]))
try:
    nn.Dropout(p=1.5)
except ValueError as e:
    print(type(e).__name__, e)

backbone = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
head = nn.Linear(4, 1)
model = nn.Sequential(backbone, head)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.7, p.numel()).view_as(p) * (1 + i % 3))

for p in backbone.parameters():
    p.requires_grad = False
model.train()
backbone.eval()
print([(n, m.training) for n, m in model.named_modules()])
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable, sum(p.numel() for p in model.parameters() if p.requires_grad))
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
before = backbone[1].running_mean.clone()
loss = nn.functional.mse_loss(model(x), t)
loss.backward()
opt.step()
print(loss, backbone[0].weight.grad, head.weight.grad)
print(torch.equal(before, backbone[1].running_mean), len(opt.state), opt.param_groups[0]["params"][0].shape)
print(model(x).requires_grad, model(x).grad_fn.name())

# Gradient accumulation: 2 micro-batches of 2, loss divided by accumulation steps
for p in model.parameters():
    p.requires_grad_(True)
model.eval()
model.zero_grad()
nn.functional.mse_loss(model(x), t).backward()
full = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
accum = 2
for i in range(accum):
    xb, tb = x[2 * i:2 * i + 2], t[2 * i:2 * i + 2]
    (nn.functional.mse_loss(model(xb), tb) / accum).backward()
print([torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(full, model.parameters())])
print(head.weight.grad, head.bias.grad)

# In train mode BatchNorm makes micro-batches differ from the full batch
model.train()
model.zero_grad()
nn.functional.mse_loss(model(x), t).backward()
full = head.weight.grad.clone()
model.zero_grad()
for i in range(accum):
    (nn.functional.mse_loss(model(x[2 * i:2 * i + 2]), t[2 * i:2 * i + 2]) / accum).backward()
print(full, head.weight.grad, backbone[1].num_batches_tracked)
