# Dropout: identity in eval mode, scaled survivors in train mode (facts independent of the mask).
import torch
import torch.nn as nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.25)
x = torch.ones(1000)
drop.eval()
print(torch.equal(drop(x), x))
drop.train()
y = drop(x)
survivors = y[y != 0]
print(torch.allclose(survivors, torch.full_like(survivors, 1 / 0.75)), 600 < survivors.numel() < 900)
print(nn.functional.dropout(x, p=0.5, training=False).sum())
print(drop, nn.Dropout(0.1, inplace=True))
w = torch.ones(10, requires_grad=True)
out = nn.functional.dropout(w, p=0.5)
out.sum().backward()
print(torch.equal(w.grad, out.detach()), out.grad_fn is not None)
print(nn.functional.dropout(x, p=0.0).sum(), nn.functional.dropout(x, p=1.0).sum())
