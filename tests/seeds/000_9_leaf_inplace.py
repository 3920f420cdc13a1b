w = torch.zeros(1, requires_grad=True)
w -= 0.1   # RuntimeError
