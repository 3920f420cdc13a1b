import torch

w = torch.tensor(2.0, requires_grad=True)   # track gradients for w
loss = (3 * w - 12) ** 2                     # PyTorch records each operation
loss.backward()                              # compute d(loss)/dw
print(w.grad)
