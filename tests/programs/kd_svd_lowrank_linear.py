# Compress a trained Linear layer by truncated SVD: W ~ U_k S_k V_k^T becomes
# Linear(in, k, bias=False) followed by Linear(k, out); compare params and error.
import torch
import torch.nn as nn


def factorize_linear(layer: nn.Linear, rank: int) -> nn.Sequential:
    W = layer.weight.data
    U, S, Vh = torch.linalg.svd(W, full_matrices=False)
    first = nn.Linear(layer.in_features, rank, bias=False)
    second = nn.Linear(rank, layer.out_features, bias=layer.bias is not None)
    sqrt_s = S[:rank].sqrt()
    first.weight.data = (Vh[:rank] * sqrt_s[:, None]).contiguous()
    second.weight.data = (U[:, :rank] * sqrt_s[None, :]).contiguous()
    if layer.bias is not None:
        second.bias.data = layer.bias.data.clone()
    return nn.Sequential(first, second)


def count(m):
    return sum(p.numel() for p in m.parameters())


def size_kb(m):
    return sum(p.numel() * p.element_size() for p in m.parameters()) / 1024


torch.set_printoptions(precision=4)
rows = torch.arange(16, dtype=torch.float64)[:, None]
cols = torch.arange(12, dtype=torch.float64)[None, :]
# low-rank-ish matrix plus small structured noise
W = torch.sin(0.3 * rows + 0.1 * cols) + 0.5 * torch.cos(0.2 * rows * 0.5 - 0.4 * cols) + 0.01 * torch.sin(rows * cols)
layer = nn.Linear(12, 16).double()
with torch.no_grad():
    layer.weight.copy_(W)
    layer.bias.copy_(torch.linspace(-0.2, 0.2, 16))

S = torch.linalg.svdvals(layer.weight.detach())
print("singular values:", S[:6])
energy = (S ** 2).cumsum(0) / (S ** 2).sum()
print("energy:", energy[:5])
print("rank for 99.9%:", int((energy < 0.999).sum()) + 1)

x = torch.linspace(-1, 1, 5 * 12, dtype=torch.float64).reshape(5, 12)
ref = layer(x)
for k in (1, 2, 4, 8):
    comp = factorize_linear(layer, k).double()
    err = (comp(x) - ref).norm() / ref.norm()
    print(f"rank {k}: params {count(comp)} vs {count(layer)}, size {size_kb(comp):.3f} KB, rel err {err.item():.2e}")

comp = factorize_linear(layer, 2)
print(comp)
print([tuple(p.shape) for p in comp.parameters()])
print(comp[0].weight.dtype, comp[0].weight.requires_grad, comp[0].weight.is_contiguous())
Wk = comp[1].weight @ comp[0].weight
print("frobenius error", f"{torch.linalg.matrix_norm(W - Wk).item():.4f}", "tail", f"{S[2:].pow(2).sum().sqrt().item():.4f}")
print("rank of approx:", torch.linalg.matrix_rank(Wk).item())
U, S2, Vh = torch.linalg.svd(W, full_matrices=True)
print(U.shape, S2.shape, Vh.shape)
print(torch.dist(U[:, :12] @ torch.diag(S2) @ Vh, W).item() < 1e-10)
