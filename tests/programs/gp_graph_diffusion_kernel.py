# Kernels on graphs (Kondor & Lafferty): the diffusion kernel expm(-beta L) of a graph Laplacian
# via torch.linalg.matrix_exp and via eigh, the regularised Laplacian (I + sigma^2 L)^-1, GP
# regression on nodes, and the gradient of the marginal likelihood w.r.t. beta through matrix_exp.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

# a ring of 8 nodes with two chords
n = 8
A = torch.zeros(n, n)
for i in range(n):
    A[i, (i + 1) % n] = A[(i + 1) % n, i] = 1.0
A[0, 4] = A[4, 0] = 1.0
A[2, 6] = A[6, 2] = 1.0
deg = A.sum(1)
L = torch.diag(deg) - A
print("degrees", deg.tolist())
print("laplacian eigenvalues", torch.linalg.eigvalsh(L))

beta = torch.tensor(0.5, requires_grad=True)
K_exp = torch.linalg.matrix_exp(-beta * L)
evals, evecs = torch.linalg.eigh(L)
K_eig = evecs @ torch.diag(torch.exp(-beta.detach() * evals)) @ evecs.T
print("matrix_exp == eigh route", torch.allclose(K_exp.detach(), K_eig, atol=1e-10))
print("row sums (heat conserved)", K_exp.sum(1).detach())
print(K_exp[0].detach())
print(K_exp.grad_fn.name())

K_reg = torch.linalg.inv(torch.eye(n) + 0.5 * L)
print("regularised laplacian row 0", K_reg[0])
print("normalised laplacian", torch.linalg.eigvalsh(torch.eye(n) - A / torch.sqrt(deg[:, None] * deg[None, :]))[:3])

# GP regression on node labels with the diffusion kernel
y = torch.tensor([1.0, 0.8, 0.1, -0.5, 0.9, 0.2, -0.7, -0.2])
observed = torch.tensor([0, 2, 3, 5, 6])
noise = 0.05


def nll(beta):
    K = torch.linalg.matrix_exp(-beta * L)
    Ko = K[observed][:, observed] + noise * torch.eye(len(observed))
    Lc = torch.linalg.cholesky(Ko)
    yo = y[observed]
    alpha = torch.cholesky_solve(yo[:, None], Lc)
    return 0.5 * (yo[:, None] * alpha).sum() + Lc.diagonal().log().sum() + 0.5 * len(yo) * math.log(2 * math.pi)


loss = nll(beta)
loss.backward()
h = 1e-6
fd = (nll(torch.tensor(0.5 + h)) - nll(torch.tensor(0.5 - h))) / (2 * h)
print(f"nll {loss.item():.6f} d/dbeta {beta.grad.item():.6f} finite diff {fd.item():.6f}")

opt = torch.optim.Adam([beta], lr=0.1)
for step in range(30):
    opt.zero_grad()
    loss = nll(beta)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step} nll {loss.item():.5f} beta {beta.item():.4f}")

with torch.no_grad():
    K = torch.linalg.matrix_exp(-beta * L)
    hidden = torch.tensor([1, 4, 7])
    Ko = K[observed][:, observed] + noise * torch.eye(len(observed))
    mean = K[hidden][:, observed] @ torch.linalg.solve(Ko, y[observed])
    var = K[hidden, hidden] - (K[hidden][:, observed] @ torch.linalg.solve(Ko, K[observed][:, hidden])).diagonal()
print("hidden nodes mean", mean, "var", var)
print("matrix_power(A, 3)[0]", torch.linalg.matrix_power(A, 3)[0])
