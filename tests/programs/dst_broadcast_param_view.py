# Distribution built once outside the loop with a parameter broadcast against another one
# (Normal(loc of shape (1,), scale of shape (3,))): broadcast_all keeps an expanded view of the
# parameter, so optimizer.step()'s in-place update is seen and gradients must sum over the expansion.
import torch
import torch.distributions as D

x = torch.tensor([0.5, 1.0, -1.0])
loc = torch.zeros(1, requires_grad=True)
dist = D.Normal(loc, torch.ones(3))
opt = torch.optim.SGD([loc], lr=0.1)
for step in range(5):
    loss = -dist.log_prob(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", loc.grad, dist.loc)

# the same without distributions: a leaf's expanded view used after an in-place update
w = torch.zeros(1, requires_grad=True)
v = w.expand(3)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(3):
    loss = ((v - x) ** 2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", w.grad, v.grad_fn.name())
