# A Kalman-filter / Gaussian-process style loop that preallocates its work buffers and passes
# them as out= to torch.linalg routines (cholesky_solve, qr, svd, norms, lu, pinv), as users do to
# avoid allocations in a tight loop; then checks what happens with a wrong buffer.
import torch

torch.set_printoptions(precision=4)
n = 4
t = torch.linspace(0, 1, n)
K = torch.exp(-(t[:, None] - t[None, :]) ** 2 / 0.5) + 0.1 * torch.eye(n)
y = torch.sin(3 * t).unsqueeze(1)

L = torch.empty(n, n)
alpha = torch.empty(0)
Kinv = torch.empty(n, n)
torch.linalg.cholesky(K, out=L)
res = torch.cholesky_solve(y, L, out=alpha)
print("alpha is buffer:", res is alpha, alpha.shape)
print(alpha.squeeze(1))
torch.cholesky_inverse(L, out=Kinv)
print("K @ Kinv ~ I:", torch.allclose(K @ Kinv, torch.eye(n), atol=1e-4))

Q, R = torch.empty(0), torch.empty(0)
qr = torch.linalg.qr(K[:, :3], out=(Q, R))
print(type(qr).__name__, qr.Q is Q, Q.shape, R.shape)
print("R diag:", R.diagonal().abs())

U, S, Vh = torch.empty(0), torch.empty(0), torch.empty(0)
torch.linalg.svd(K, full_matrices=False, out=(U, S, Vh))
print("singular values:", S)
norms = torch.empty(2)
torch.linalg.vector_norm(torch.stack([t, y.squeeze(1)]), dim=1, out=norms)
print("norms:", norms)
fro = torch.empty(())
torch.linalg.matrix_norm(K, out=fro)
print("fro:", f"{fro.item():.4f}")

P, Lo, Up = torch.empty(0), torch.empty(0), torch.empty(0)
torch.linalg.lu(K, out=(P, Lo, Up))
print("PLU ok:", torch.allclose(P @ Lo @ Up, K, atol=1e-5))
LU, piv = torch.empty(0), torch.empty(0, dtype=torch.int32)
torch.linalg.lu_factor(K, out=(LU, piv))
x = torch.empty(0)
torch.linalg.lu_solve(LU, piv, y, out=x)
print("lu_solve matches:", torch.allclose(x, alpha, atol=1e-5), piv.tolist())
pinv = torch.empty(0, dtype=torch.float64)
torch.linalg.pinv(K[:, :3], out=pinv)
print("pinv dtype:", pinv.dtype, pinv.shape)
print("cross:", torch.linalg.cross(K[:3, :3], K[1:, :3], out=torch.empty(3, 3))[0])
print("vecdot:", torch.linalg.vecdot(K, K, out=torch.empty(n)))
print("multi_dot:", torch.linalg.multi_dot([K, K, y], out=torch.empty(n, 1)).squeeze(1))

for name, call in [
    ("wrong dtype", lambda: torch.linalg.qr(K, out=(torch.empty(0, dtype=torch.float64), torch.empty(0)))),
    ("too few", lambda: torch.linalg.svd(K, out=(torch.empty(0), torch.empty(0)))),
    ("not a tuple", lambda: torch.linalg.lu_factor(K, out=torch.empty(0))),
    ("int buffer", lambda: torch.cholesky_solve(y, L, out=torch.empty(0, dtype=torch.long))),
    ("norm dtype", lambda: torch.linalg.norm(K, out=torch.empty(0, dtype=torch.float64))),
    ("vecdot dtype", lambda: torch.linalg.vecdot(K, K, out=torch.empty(0, dtype=torch.float64))),
    ("requires grad", lambda: torch.linalg.pinv(K.clone().requires_grad_(), out=torch.empty(0))),
    ("half qr", lambda: torch.linalg.qr(K.half())),
]:
    try:
        call()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__, e)

Kg = K.clone().requires_grad_()
buf = torch.empty(0)
torch.linalg.norm(Kg, out=buf)
print("composite out grad_fn:", type(buf.grad_fn).__name__, buf.requires_grad)
g = torch.Generator()
print("new generator seed:", g.initial_seed())
