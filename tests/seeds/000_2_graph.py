p = torch.tensor([4.0], requires_grad=True)
q = p * 2
r = q + 1

print("r.grad_fn               :", r.grad_fn)
print("r.grad_fn.next_functions:", r.grad_fn.next_functions)
