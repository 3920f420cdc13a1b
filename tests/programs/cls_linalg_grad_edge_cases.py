# Gradient corner cases people hit when fitting models with closed-form pieces: a batch of
# systems solved against one shared right-hand side (broadcast b), det of singular matrices
# (collinear features, a zero covariance), second derivatives of det, and gradients w.r.t.
# a multi-column right-hand side.
import torch

torch.set_printoptions(precision=4)
A0 = torch.tensor([[3., 1.], [1., 2.]])

# one right-hand side shared by a batch of matrices: b's gradient has b's shape
As = torch.stack([A0, 2 * A0, A0 + torch.eye(2)]).requires_grad_(True)
b = torch.tensor([9., 8.], requires_grad=True)
x = torch.linalg.solve(As, b)
x.sum().backward()
print(x.shape, b.grad.shape)
print(b.grad)
print(As.grad[0])

# a (2, 1) right-hand side broadcast against the batch
b1 = torch.tensor([[9.], [8.]], requires_grad=True)
As.grad = None
x1 = torch.linalg.solve(As, b1)
(x1 ** 2).sum().backward()
print(x1.shape, b1.grad.shape, b1.grad.squeeze())

# the same through inverse @ b
b2 = torch.tensor([9., 8.], requires_grad=True)
(torch.linalg.inv(As.detach()) @ b2).sum().backward()
print(b2.grad)

# multi-column right-hand side
A = A0.clone().requires_grad_(True)
B = torch.tensor([[1., 0., 2.], [0., 1., -1.]], requires_grad=True)
X = torch.linalg.solve(A, B)
(X * torch.tensor([1., 2., 3.])).sum().backward()
print(X, B.grad, A.grad)

# det of singular matrices: forward is 0 and backward must not fail
for name, M in [("zeros", torch.zeros(2, 2)),
                ("collinear", torch.tensor([[1., 2.], [2., 4.]])),
                ("rank1 3x3", torch.outer(torch.tensor([1., 2., 3.]), torch.ones(3))),
                ("diag 2,3,0", torch.diag(torch.tensor([2., 3., 0.])))]:
    Mg = M.clone().requires_grad_(True)
    d = torch.linalg.det(Mg)
    try:
        d.backward()
        print(name, (d + 0.0).item(), (Mg.grad + 0.0).abs().sum().item())
    except RuntimeError as e:
        print(name, "backward failed:", e)

# log-det of a covariance with a zero-variance feature: users add jitter
feat = torch.tensor([[1., 5.], [2., 5.], [3., 5.]])
C = torch.cov(feat.T)
print(C, torch.det(C) + 0.0)
Cg = (C + 1e-3 * torch.eye(2)).requires_grad_(True)
torch.log(torch.det(Cg)).backward()
print(Cg.grad)

# second derivative of det
A = A0.clone().requires_grad_(True)
g, = torch.autograd.grad(torch.linalg.det(A), A, create_graph=True)
g.sum().backward()
print(g.detach().round(decimals=4), A.grad.round(decimals=4), g.requires_grad)

# gradient through inv of a batch, checked against -A^-T G A^-T
Ab = torch.stack([A0, A0 + torch.eye(2)]).requires_grad_(True)
Ai = torch.linalg.inv(Ab)
Ai.sum().backward()
ref = -(Ai.detach().mT @ torch.ones(2, 2) @ Ai.detach().mT)
print(torch.allclose(Ab.grad, ref, atol=1e-6), Ab.grad.shape)
