# Differentiating through linear algebra (e.g. Gaussian-process marginal likelihood, spectral
# regularisers): grads of solve, slogdet, cholesky, eigvalsh, svdvals, pinv, lstsq, matrix norms.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def kernel(x, ls):
    d = torch.cdist(x.unsqueeze(1), x.unsqueeze(1)) ** 2
    return torch.exp(-0.5 * d / ls ** 2) + 1e-2 * torch.eye(x.shape[0], dtype=x.dtype)


x = torch.linspace(0, 2, 6, dtype=torch.float64)
y = torch.sin(3 * x)
ls = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
for step in range(4):
    K = kernel(x, ls)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    nll = 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + torch.log(torch.diagonal(L)).sum()
    nll.backward()
    print(f"step {step} ls={ls.item():.4f} nll={nll.item():.4f} grad={ls.grad.item():.4f}")
    with torch.no_grad():
        ls -= 0.05 * ls.grad
    ls.grad = None

K = kernel(x, ls.detach()).requires_grad_()
sign, logdet = torch.linalg.slogdet(K)
logdet.backward()
print("slogdet grad == inv", torch.allclose(K.grad, torch.linalg.inv(K).T))
print(logdet.grad_fn.name())

A = torch.tensor([[3.0, 1.0, 0.0], [0.2, 2.0, 0.5], [-0.4, 0.7, 1.0]], dtype=torch.float64, requires_grad=True)
ev = torch.linalg.eigvalsh(A)
ev[-1].backward()
print("top eigval", ev[-1].item().__round__(6), "grad", A.grad, ev.grad_fn.name(), sep="\n")
A.grad = None
sv = torch.linalg.svdvals(A)
sv.sum().backward()
print("nuclear grad", A.grad)
A.grad = None
torch.linalg.matrix_norm(A, ord="nuc").backward()
print("matrix_norm nuc grad", A.grad)
A.grad = None
torch.linalg.matrix_norm(A, ord=2).backward()
print("spectral grad", A.grad)
A.grad = None
b = torch.tensor([1.0, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
sol = torch.linalg.solve(A, b)
sol.pow(2).sum().backward()
print("solve grads", A.grad, b.grad, sep="\n")
print(sol.grad_fn.name())
A.grad = None
torch.linalg.det(A).backward()
print("det grad", A.grad)

M = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype=torch.float64, requires_grad=True)
P = torch.linalg.pinv(M)
P.sum().backward()
print("pinv", P, "grad", M.grad, sep="\n")
M.grad = None
t = torch.tensor([[1.0], [2.0], [2.5]], dtype=torch.float64, requires_grad=True)
res = torch.linalg.lstsq(M, t)
res.solution.sum().backward()
print("lstsq solution", res.solution.squeeze(), "grad M", M.grad, "grad t", t.grad.squeeze(), sep="\n")
print(res.solution.grad_fn.name())
M.grad = None
Q, R = torch.linalg.qr(M)
R.diagonal().abs().sum().backward()
print("qr R diag grad", M.grad)
print(torch.autograd.gradcheck(lambda m: torch.linalg.svdvals(m), (M.detach().clone().requires_grad_(),)))
print(torch.autograd.gradcheck(lambda a: torch.linalg.matrix_power(a, 3), (A.detach().clone().requires_grad_(),)))
print(torch.autograd.gradcheck(lambda a: torch.linalg.inv(a), (A.detach().clone().requires_grad_(),)))

# an l_p penalty (1 < p < 2) on sparse weights: zero entries get zero gradient
w = torch.tensor([[0.0, 1.5, -0.5], [2.0, 0.0, 0.0]], requires_grad=True)
torch.linalg.vector_norm(w, ord=1.5, dim=1).sum().backward()
print("l1.5 grad", w.grad)
w.grad = None
torch.linalg.vector_norm(w, ord=0.5).backward()
print("l0.5 grad", w.grad)
chain = torch.linalg.multi_dot([M.T, M, A[:2]])
print("multi_dot", chain.grad_fn.name(), chain.grad_fn.next_functions[0][0].name())
print("matrix_power -1", torch.linalg.matrix_power(A, -1).grad_fn.name(),
      "0:", torch.linalg.matrix_power(A, 0).grad_fn.name())
