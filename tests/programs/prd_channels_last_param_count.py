# Conv model boilerplate: channels_last memory format, parameter count table, requires_grad freezing, model summary.
import torch
import torch.nn as nn

class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                      nn.Conv2d(8, 4, 3, stride=2), nn.ReLU())
        self.head = nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))

model = SmallCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape) * 0.3)
model = model.to(memory_format=torch.channels_last)
w = model.features[0].weight
print(w.is_contiguous(), w.is_contiguous(memory_format=torch.channels_last), w.stride())
x = torch.linspace(-1, 1, 2 * 3 * 8 * 8).reshape(2, 3, 8, 8)
xc = x.contiguous(memory_format=torch.channels_last)
print(xc.shape, xc.stride(), xc.is_contiguous(), torch.equal(x, xc))
out = model(xc)
print(out.shape)
print(torch.round(out * 1000) / 1000)
print(torch.allclose(out, model(x), atol=1e-5))

total = 0
for name, p in model.named_parameters():
    print(f"{name:<28} {str(tuple(p.shape)):<16} {p.numel():>6}")
    total += p.numel()
print(f"Total params: {total:,}")
bufs = sum(b.numel() for b in model.buffers())
print("buffers:", bufs, [n for n, _ in model.named_buffers()])

for p in model.features.parameters():
    p.requires_grad_(False)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print("trainable:", trainable, sum(p.numel() for p in model.parameters() if p.requires_grad))
size_mb = sum(p.numel() * p.element_size() for p in model.parameters()) / 1024 ** 2
print(f"size: {size_mb:.4f} MB")
print(model)
y = model(xc).sum()
y.backward()
print(model.features[0].weight.grad is None, model.head.weight.grad.shape)
print(torch.channels_last, torch.contiguous_format, x.to(memory_format=torch.channels_last).stride())
