# Deep-compression style weight sharing: cluster a layer's weights into k shared
# values (1-D k-means from linspace init), fine-tune centroids by summing grads per cluster.
import torch
import torch.nn as nn
import torch.nn.functional as F

layer = nn.Linear(8, 6)
with torch.no_grad():
    layer.weight.copy_(torch.sin(torch.arange(48, dtype=torch.float32) * 0.91).reshape(6, 8))
    layer.bias.copy_(torch.linspace(-0.1, 0.1, 6))


def kmeans_1d(values, k, iters=10):
    centroids = torch.linspace(values.min().item(), values.max().item(), k)
    for _ in range(iters):
        assign = (values[:, None] - centroids[None, :]).abs().argmin(dim=1)
        for c in range(k):
            members = values[assign == c]
            if members.numel() > 0:
                centroids[c] = members.mean()
    return centroids, assign


flat = layer.weight.detach().flatten()
centroids, assign = kmeans_1d(flat, k=4)
print("centroids:", [round(c, 4) for c in centroids.tolist()])
print("cluster sizes:", torch.bincount(assign, minlength=4).tolist())
shared = centroids[assign].reshape_as(layer.weight)
print("unique after sharing:", torch.unique(shared).numel())
print("quantization mse:", f"{F.mse_loss(shared, layer.weight.detach()).item():.5f}")

# fine-tune only the centroids: grad of each centroid = sum of grads of its members
codebook = nn.Parameter(centroids.clone())
idx = assign.reshape(6, 8)
x = torch.cos(torch.arange(40, dtype=torch.float32) * 0.3).reshape(5, 8)
target = torch.sin(torch.arange(30, dtype=torch.float32) * 0.2).reshape(5, 6)
opt = torch.optim.SGD([codebook], lr=0.05)
for step in range(12):
    w = codebook[idx]
    loss = F.mse_loss(F.linear(x, w, layer.bias.detach()), target)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        print("codebook grad:", [f"{g:.4f}" for g in codebook.grad.tolist()])
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}")

# same grad computed by hand with index_add_ / scatter_add
w = codebook.detach()[idx].requires_grad_()
F.mse_loss(F.linear(x, w, layer.bias.detach()), target).backward()
by_index_add = torch.zeros(4).index_add_(0, idx.flatten(), w.grad.flatten())
by_scatter = torch.zeros(4).scatter_add(0, idx.flatten(), w.grad.flatten())
w2 = codebook[idx]
g = torch.autograd.grad(F.mse_loss(F.linear(x, w2, layer.bias.detach()), target), codebook)[0]
print(torch.allclose(by_index_add, g, atol=1e-6), torch.allclose(by_scatter, g, atol=1e-6))

# storage estimate: 2-bit indices + float32 codebook vs dense float32
bits = idx.numel() * 2 + codebook.numel() * 32
dense = layer.weight.numel() * 32
print(f"dense {dense} bits, shared {bits} bits, compression {dense / bits:.2f}x")
print(idx.dtype, idx.shape, codebook.grad is not None)
