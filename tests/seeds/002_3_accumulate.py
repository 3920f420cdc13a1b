import torch

w = torch.tensor(1.0, requires_grad=True)

for i in range(3):
    loss = 3 * w          # d(loss)/dw = 3 every time
    loss.backward()
    print(f"after backward #{i + 1}: w.grad = {w.grad.item()}")

w.grad.zero_()            # what optimizer.zero_grad() does for every parameter
print("after zero_():", w.grad.item())
