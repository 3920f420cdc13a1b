"""Fit y = w*x + b with nothing but tensors, autograd and a hand-written update (post 3).

No nn.Module, no optimizer yet. Run: python examples/fit_line.py
"""
import torch

torch.manual_seed(0)

# 1) Data: 100 points on the line y = 2x - 1, plus a little noise.
x = torch.linspace(-1, 1, 100)
y = 2 * x - 1 + 0.1 * torch.randn(100)

# 2) Parameters: leaf tensors that autograd should track.
w = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
