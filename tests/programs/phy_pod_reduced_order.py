# Reduced-order modelling with Proper Orthogonal Decomposition: SVD of a snapshot matrix of a
# travelling/decaying wave, the energy captured by the leading modes (cumsum of S^2), a Galerkin
# projection, and a learned linear latent model z' = A z integrated exactly with torch.linalg.matrix_exp
# whose generator is fitted by gradient descent (as in Koopman / DMD-style notebooks).
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

x = torch.linspace(0, 1, 40)
t = torch.linspace(0, 2, 30)
Xg, Tg = torch.meshgrid(x, t, indexing="ij")
snap = torch.exp(-0.5 * Tg) * torch.sin(2 * torch.pi * (Xg - 0.3 * Tg)) + 0.2 * torch.exp(-Tg) * torch.cos(4 * torch.pi * Xg)
print("snapshots", snap.shape)

mean = snap.mean(dim=1, keepdim=True)
U, S, Vh = torch.linalg.svd(snap - mean, full_matrices=False)
print("U", U.shape, "S", S.shape, "Vh", Vh.shape)
print("leading singular values", S[:5])
energy = torch.cumsum(S ** 2, 0) / (S ** 2).sum()
r = int((energy < 0.999).sum()) + 1
print("energy", energy[:5], "modes for 99.9%:", r)
print("svdvals match:", torch.allclose(torch.linalg.svdvals(snap - mean), S))

Phi = U[:, :r]
print("orthonormal modes:", torch.allclose(Phi.T @ Phi, torch.eye(r), atol=1e-10))
Z = Phi.T @ (snap - mean)          # latent trajectories, r x nt
recon = Phi @ Z + mean
print("relative reconstruction error %.2e" % ((recon - snap).norm() / snap.norm()).item())
# sign-invariant check of the modes: |<phi_i, phi_i^ref>|
U2, _, _ = torch.linalg.svd((snap - mean).T, full_matrices=False)
print("|Z row norms|", Z.norm(dim=1))

# learn a linear generator A with z(t) = expm(A t) z(0)
dt = (t[1] - t[0]).item()
A = torch.zeros(r, r, requires_grad=True)
opt = torch.optim.Adam([A], lr=0.05)
for it in range(40):
    opt.zero_grad()
    Phi_dt = torch.linalg.matrix_exp(A * dt)
    z = Z[:, 0]
    preds = [z]
    for k in range(len(t) - 1):
        z = Phi_dt @ z
        preds.append(z)
    pred = torch.stack(preds, dim=1)
    loss = ((pred - Z) ** 2).mean()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"it {it:2d} latent mse {loss.item():.5f} |grad| {A.grad.norm().item():.4f}")
print("latent mse decreased:", loss.item() < 0.5 * ((Z[:, :1].expand_as(Z) - Z) ** 2).mean().item())
eig = torch.linalg.eigvalsh(0.5 * (A + A.T).detach())
print("symmetric-part eigenvalues (damping):", eig)
print(torch.linalg.matrix_exp(torch.zeros(2, 2)), torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))
# gradient of the matrix exponential against finite differences
M = torch.tensor([[0.1, 0.5], [-0.3, 0.2]], requires_grad=True)
g, = torch.autograd.grad(torch.linalg.matrix_exp(M).sum(), M)
E = torch.zeros(2, 2); E[0, 1] = 1e-6
fd = (torch.linalg.matrix_exp(M.detach() + E).sum() - torch.linalg.matrix_exp(M.detach() - E).sum()) / 2e-6
print(g, f"fd {fd.item():.6f}")
