m = torch.tensor([5.0], requires_grad=True)

n = m * 2
print("n.requires_grad          :", n.requires_grad)
print("n.detach().requires_grad :", n.detach().requires_grad)

with torch.no_grad():
    o = m * 2
print("inside no_grad()         :", o.requires_grad)
