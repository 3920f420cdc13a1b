import torch

x = torch.tensor(3.0, requires_grad=True)
z = x * x
z.backward(retain_graph=True)   # keep the recording alive
z.backward()                    # allowed now
print(x.grad)                   # 6 + 6: gradients ADD, they do not replace
