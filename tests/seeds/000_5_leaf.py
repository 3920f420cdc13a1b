leaf = torch.tensor([3.0], requires_grad=True)
mid = leaf * 2
final = mid.sum()
final.backward()

print("leaf.is_leaf:", leaf.is_leaf, "| leaf.grad:", leaf.grad.item())
print("mid.is_leaf :", mid.is_leaf,  "| mid.grad :", mid.grad)
