# Two-view geometry: normalized eight-point algorithm for the fundamental matrix (Hartley
# normalization, SVD null vector, rank-2 enforcement with torch.diag), essential matrix from
# intrinsics, Sampson error, and the four (R, t) candidates from the essential matrix's SVD.
import torch

torch.set_printoptions(precision=4, sci_mode=False)
dt = torch.float64

K = torch.tensor([[400.0, 0.0, 160.0], [0.0, 400.0, 120.0], [0.0, 0.0, 1.0]], dtype=dt)
ang = torch.tensor(0.1, dtype=dt)
R = torch.stack([torch.stack([torch.cos(ang), torch.zeros_like(ang), torch.sin(ang)]),
                 torch.tensor([0.0, 1.0, 0.0], dtype=dt),
                 torch.stack([-torch.sin(ang), torch.zeros_like(ang), torch.cos(ang)])])
t = torch.tensor([1.0, 0.1, 0.05], dtype=dt)

i = torch.arange(12, dtype=dt)
X = torch.stack([torch.sin(i) * 2, torch.cos(1.7 * i), 5 + torch.sin(0.3 * i) * 2], -1)


def project(P, X):
    x = (P @ torch.cat([X, torch.ones(len(X), 1, dtype=dt)], 1).T).T
    return x[:, :2] / x[:, 2:]


P1 = K @ torch.cat([torch.eye(3, dtype=dt), torch.zeros(3, 1, dtype=dt)], 1)
P2 = K @ torch.cat([R, t[:, None]], 1)
x1, x2 = project(P1, X), project(P2, X)
print("x1[:3]\n", x1[:3], "\nx2[:3]\n", x2[:3])


def normalize(pts):
    c = pts.mean(0)
    s = (2 ** 0.5) / (pts - c).norm(dim=1).mean()
    T = torch.tensor([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]], dtype=dt)
    ph = torch.cat([pts, torch.ones(len(pts), 1, dtype=dt)], 1)
    return (T @ ph.T).T, T


def eight_point(a, b):
    na, Ta = normalize(a)
    nb, Tb = normalize(b)
    A = torch.stack([nb[:, 0] * na[:, 0], nb[:, 0] * na[:, 1], nb[:, 0], nb[:, 1] * na[:, 0], nb[:, 1] * na[:, 1], nb[:, 1], na[:, 0], na[:, 1], torch.ones(len(a), dtype=dt)], 1)
    _, _, Vh = torch.linalg.svd(A)
    F = Vh[-1].reshape(3, 3)
    U, S, Vh2 = torch.linalg.svd(F)
    S[2] = 0
    F = U @ torch.diag(S) @ Vh2
    F = Tb.T @ F @ Ta
    return F / F[2, 2]


Fm = eight_point(x1, x2)
print("F\n", Fm)
print("rank", torch.linalg.matrix_rank(Fm).item(), "det ~ 0", abs(torch.linalg.det(Fm).item()) < 1e-12)
h1 = torch.cat([x1, torch.ones(12, 1, dtype=dt)], 1)
h2 = torch.cat([x2, torch.ones(12, 1, dtype=dt)], 1)
alg = (h2 * (h1 @ Fm.T)).sum(1)
print("algebraic err max < 1e-8", alg.abs().max().item() < 1e-8)
Fx1, Ftx2 = h1 @ Fm.T, h2 @ Fm
sampson = alg ** 2 / (Fx1[:, 0] ** 2 + Fx1[:, 1] ** 2 + Ftx2[:, 0] ** 2 + Ftx2[:, 1] ** 2)
print("sampson max", f"{sampson.max().item():.1e}" if sampson.max().item() > 1e-20 else "~0")

E = K.T @ Fm @ K
U, S, Vh = torch.linalg.svd(E)
print("E singular ratio", (S[0] / S[1]).item().__round__(6), "third", S[2].item() < 1e-8 * S[0].item())
W = torch.tensor([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype=dt)
if torch.linalg.det(U) < 0:
    U = -U
if torch.linalg.det(Vh) < 0:
    Vh = -Vh
cands = [(U @ W @ Vh, U[:, 2]), (U @ W @ Vh, -U[:, 2]), (U @ W.T @ Vh, U[:, 2]), (U @ W.T @ Vh, -U[:, 2])]
best = None
counts = []
for j, (Rc, tc) in enumerate(cands):
    front = 0
    for k in range(12):
        A = torch.stack([x1[k, 0] * P1[2] - P1[0], x1[k, 1] * P1[2] - P1[1]])
        Pc = K @ torch.cat([Rc, tc[:, None]], 1)
        A = torch.cat([A, torch.stack([x2[k, 0] * Pc[2] - Pc[0], x2[k, 1] * Pc[2] - Pc[1]])])
        Xh = torch.linalg.svd(A).Vh[-1]
        Xk = Xh[:3] / Xh[3]
        front += int(Xk[2] > 0 and (Rc @ Xk + tc)[2] > 0)
    counts.append(front)
    if best is None or front > best[0]:
        best = (front, Rc, tc)
print("points in front per candidate (sorted)", sorted(counts))
print("R err", (best[1] - R).abs().max().item() < 1e-8)
print("t dir", best[2] * torch.sign(best[2][0]), t / t.norm())
