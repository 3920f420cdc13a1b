# Freezing layers with requires_grad_(False): which parameters get gradients, what the optimizer
# updates, per-group learning rates for fine-tuning, and unfreezing later.
import torch
import torch.nn as nn


def make_model():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape) * 0.8)
    return model


x = torch.tensor([[1.0, 0.5, -1.0], [0.0, 2.0, 1.0], [-1.5, 1.0, 0.5], [0.3, -0.7, 2.0]])
y = torch.tensor([0, 1, 1, 0])
loss_fn = nn.CrossEntropyLoss()

model = make_model()
for param in model[0].parameters():
    param.requires_grad_(False)
model[2].weight.requires_grad = False
print([(n, p.requires_grad) for n, p in model.named_parameters()])

loss = loss_fn(model(x), y)
print(loss, loss.requires_grad)
loss.backward()
for n, p in model.named_parameters():
    print(n, None if p.grad is None else p.grad.shape, p.is_leaf)
print(model[2].bias.grad, model[4].bias.grad)

# Only trainable parameters handed to the optimizer
trainable = [p for p in model.parameters() if p.requires_grad]
print(len(trainable), sum(p.numel() for p in trainable))
opt = torch.optim.SGD(trainable, lr=0.1)
frozen_before = model[0].weight.clone()
head_before = model[4].weight.clone()
opt.step()
print(torch.equal(frozen_before, model[0].weight), torch.equal(head_before, model[4].weight))
print(model[4].weight)

# Passing frozen parameters to the optimizer is harmless: they have no .grad
opt_all = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
opt_all.zero_grad()
loss_fn(model(x), y).backward()
opt_all.step()
print(torch.equal(frozen_before, model[0].weight), len(opt_all.state))
print(sorted(len(s) for s in opt_all.state.values()))

# Frozen input layer: the output still requires grad because later layers do
model.requires_grad_(False)
out = model(x)
print(out.requires_grad, out.grad_fn)
try:
    loss_fn(out, y).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# Unfreeze the last block, fine-tune with different learning rates per group
model = make_model()
model.requires_grad_(False)
model[4].requires_grad_(True)
model[2].requires_grad_(True)
opt = torch.optim.Adam([
    {"params": model[2].parameters(), "lr": 1e-3},
    {"params": model[4].parameters()},
], lr=1e-2)
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", model[0].weight.grad is None, model[2].weight.grad.abs().sum().item() > 0)
print(model[4].bias, model[2].bias)

# Feature extraction under no_grad: the head alone is trained
backbone, head = make_model()[:4], nn.Linear(4, 2)
with torch.no_grad():
    head.weight.copy_(torch.tensor([[0.5, -0.5, 0.25, 0.0], [-0.25, 0.5, 0.0, 0.75]]))
    head.bias.zero_()
    features = backbone(x)
print(features.requires_grad, features.grad_fn)
logits = head(features)
loss = loss_fn(logits, y)
loss.backward()
print(loss, head.weight.grad, [p.grad for p in backbone.parameters()])

# zero_grad() sets grads to None by default; set_to_none=False zeroes them in place
head.zero_grad()
print(head.weight.grad)
loss_fn(head(features), y).backward()
head.zero_grad(set_to_none=False)
print(head.weight.grad, head.bias.grad)
