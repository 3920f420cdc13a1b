# The classic two-layer net with the backward pass written by hand (tensors, no autograd).
import torch

dtype = torch.float
N, D_in, H, D_out = 16, 10, 20, 3

x = torch.sin(torch.arange(N * D_in, dtype=dtype)).reshape(N, D_in)
y = torch.cos(torch.arange(N * D_out, dtype=dtype)).reshape(N, D_out)
w1 = torch.sin(torch.arange(D_in * H, dtype=dtype) * 1.3).reshape(D_in, H) * 0.3
w2 = torch.cos(torch.arange(H * D_out, dtype=dtype) * 0.7).reshape(H, D_out) * 0.3

learning_rate = 1e-3
for t in range(300):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)

    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, round(loss, 4))

    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)

    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2

# Check the hand-written gradients against autograd on the final weights
w1a = w1.clone().requires_grad_(True)
w2a = w2.clone().requires_grad_(True)
loss_a = (x.mm(w1a).clamp(min=0).mm(w2a) - y).pow(2).sum()
loss_a.backward()
h = x.mm(w1)
grad_y_pred = 2.0 * (h.clamp(min=0).mm(w2) - y)
grad_h = grad_y_pred.mm(w2.t())
grad_h[h < 0] = 0
print(torch.allclose(w1a.grad, x.t().mm(grad_h), atol=1e-5), torch.allclose(w2a.grad, h.clamp(min=0).t().mm(grad_y_pred), atol=1e-5))
print(w2[:2])
