# Keeping BatchNorm frozen during fine-tuning by overriding train() in a backbone (the
# detection-codebase "norm_eval" idiom), then calling model.train()/model.eval() on the
# wrapper: which submodules end up training, whether running stats move, and the gradients.
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, norm_eval=True):
        super().__init__()
        self.norm_eval = norm_eval
        self.conv = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.train_calls = []

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))

    def train(self, mode=True):
        self.train_calls.append(mode)
        super().train(mode)
        if mode and self.norm_eval:
            for m in self.modules():
                if isinstance(m, nn.BatchNorm1d):
                    m.eval()
        return self


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Sequential(nn.Dropout(0.5), nn.Linear(4, 2))

    def forward(self, x):
        return self.head(self.backbone(x))


model = Detector()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.6, p.numel()).view_as(p) * (1 + i))
x = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0], [2.0, 0.5, -0.5], [-1.0, 1.0, 1.0]])

model.train()
print(model.backbone.train_calls)
print([(n, m.training) for n, m in model.named_modules()])
before = model.backbone.bn.running_mean.clone()
model.head.eval()  # no dropout, so outputs are deterministic
out = model(x)
print(out)
print(torch.equal(before, model.backbone.bn.running_mean), model.backbone.bn.num_batches_tracked)
out.sum().backward()
print(model.backbone.bn.weight.grad, model.backbone.conv.bias.grad)

model.eval()
print(model.backbone.train_calls, model.backbone.training, model.backbone.bn.training)
model.train(True)
print(model.backbone.train_calls, model.backbone.bn.training, model.head[0].training)

model.backbone.norm_eval = False
model.train()
print(model.backbone.bn.training)
model.head.eval()
model(x)
print(model.backbone.bn.running_mean, model.backbone.bn.num_batches_tracked)
model.requires_grad_(False)
model.backbone.bn.requires_grad_(True)
print([n for n, p in model.named_parameters() if p.requires_grad])

# Sequential of custom modules: eval() reaches every child's train()
calls = []


class Tracked(nn.Linear):
    def train(self, mode=True):
        calls.append((self.out_features, mode))
        return super().train(mode)


seq = nn.Sequential(Tracked(2, 3), nn.Sequential(Tracked(3, 4)), Tracked(4, 1))
seq.eval()
seq.train()
print(calls)
