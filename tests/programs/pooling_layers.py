# Pooling layers: MaxPool2d (stride, padding, dilation, ceil_mode, return_indices), AvgPool2d
# (count_include_pad, divisor_override), AdaptiveAvgPool2d with awkward sizes, and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

# a 5x5 image with distinct values, so no max is ever tied
x = (torch.arange(25.) * 7 % 25).view(1, 1, 5, 5)
print(x)
print(nn.MaxPool2d(2)(x))
print(nn.MaxPool2d(2, stride=1)(x).shape, nn.MaxPool2d(3, stride=2)(x))
print(nn.MaxPool2d(2, ceil_mode=True)(x))
print(nn.MaxPool2d(3, stride=2, padding=1)(x))
print(nn.MaxPool2d(2, stride=1, dilation=2)(x))
out, idx = nn.MaxPool2d(2, return_indices=True)(x)
print(out, idx)
print(nn.MaxPool2d(kernel_size=(1, 3), stride=(1, 2))(x).shape)
print(nn.MaxPool2d(3, stride=2, padding=1), nn.MaxPool2d(2, ceil_mode=True))

print(nn.AvgPool2d(2)(x))
print(nn.AvgPool2d(3, stride=2, padding=1)(x))
print(nn.AvgPool2d(2, divisor_override=1)(x))
print(nn.AvgPool2d(3, stride=2, padding=1))

for size in [1, 2, 3, (2, 4), (None, 2), 5]:
    print(size, nn.AdaptiveAvgPool2d(size)(x))
print(nn.AdaptiveAvgPool2d((None, 2)), nn.AdaptiveAvgPool2d(7)(x).shape)

# gradients: max pool routes to the argmax, avg pool spreads evenly (overlapping windows add up)
w = x.clone().requires_grad_()
F.max_pool2d(w, 3, stride=2, padding=1).sum().backward()
print(w.grad)
w.grad = None
F.avg_pool2d(w, 3, stride=1).sum().backward()
print(w.grad)
w.grad = None
F.adaptive_avg_pool2d(w, 3).sum().backward()
print(w.grad)
w.grad = None
pooled = F.max_pool2d(w, 2, ceil_mode=True)
(pooled * torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])).sum().backward()
print(w.grad, pooled.grad_fn.name())

# a batch with channels: global average pooling three ways
batch = torch.sin(torch.arange(2 * 3 * 4 * 4, dtype=torch.float32)).view(2, 3, 4, 4)
gap = nn.AdaptiveAvgPool2d(1)(batch)
print(gap.shape, torch.allclose(gap.flatten(1), batch.mean(dim=(2, 3))),
      torch.allclose(F.avg_pool2d(batch, 4).flatten(1), batch.mean((-2, -1))))
print(F.max_pool2d(batch, 2).shape, F.max_pool2d(batch, 2)[1, 2])
print(batch.amax(dim=(2, 3)))
try:
    nn.MaxPool2d(3, padding=2)(x)
except RuntimeError as e:
    print("RuntimeError:", e)

# padding excluded from the average, and a partial last window with ceil_mode
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(x))
print(nn.AvgPool2d(2, ceil_mode=True)(x))
print(nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)(x).shape)
