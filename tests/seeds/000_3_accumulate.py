a = torch.tensor([1.0], requires_grad=True)
for step in range(1, 4):
    out = (a * 3).sum()
    out.backward()
    print(f"after backward #{step}: a.grad = {a.grad.item()}")
