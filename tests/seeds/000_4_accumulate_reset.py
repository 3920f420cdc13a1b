a2 = torch.tensor([1.0], requires_grad=True)
for step in range(1, 4):
    if a2.grad is not None:
        a2.grad.zero_()
    out = (a2 * 3).sum()
    out.backward()
    print(f"after backward #{step}: a2.grad = {a2.grad.item()}")
