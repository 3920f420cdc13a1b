# VQ-VAE vector quantizer as in the popular reimplementations: codebook nn.Embedding initialised
# by hand, distances via expanded squared norms and torch.cdist, argmin encodings, one-hot via
# scatter_, straight-through estimator, codebook + commitment losses, perplexity, and an EMA
# codebook update with index_add_ / bincount.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizer(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost):
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._embedding = nn.Embedding(self._num_embeddings, self._embedding_dim)
        with torch.no_grad():
            w = torch.arange(num_embeddings * embedding_dim, dtype=torch.float32).view(num_embeddings, embedding_dim)
            self._embedding.weight.copy_(torch.sin(w * 0.9) * 0.8)
        self._commitment_cost = commitment_cost

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True)
                     + torch.sum(self._embedding.weight ** 2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings, device=inputs.device)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = torch.mean(encodings, dim=0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity, encodings, distances


vq = VectorQuantizer(5, 3, 0.25)
print(vq)
z_e = torch.cos(torch.arange(2 * 3 * 2 * 2, dtype=torch.float32) * 0.7).view(2, 3, 2, 2).requires_grad_()
loss, z_q, perplexity, encodings, distances = vq(z_e)
print(distances.shape, distances[:3])
print(encodings.argmax(1), encodings.sum(0))
print(f"loss {loss.item():.6f} perplexity {perplexity.item():.5f}")
print(z_q.shape, z_q.grad_fn.name(), z_q.is_contiguous())
(z_q.sum() + loss).backward()
print(z_e.grad[0, :, 0])
print(vq._embedding.weight.grad)

# the same lookup with torch.cdist / argmin / embedding
flat = z_e.detach().permute(0, 2, 3, 1).reshape(-1, 3)
d = torch.cdist(flat, vq._embedding.weight.detach())
idx = d.argmin(dim=-1)
print(d.shape, torch.equal(idx, encodings.argmax(1)), torch.allclose(d ** 2, distances.detach(), atol=1e-5))
zq2 = vq._embedding(idx)
print(zq2.grad_fn.name(), F.embedding(idx.view(2, 2, 2), vq._embedding.weight).shape)
print(idx.view(2, 2, 2), F.one_hot(idx, num_classes=5).float().mean(0))
min_d, min_i = d.min(dim=1)
print(min_d, min_i)
codes_used = torch.unique(idx, return_counts=True)
print(codes_used)

# straight-through estimator on a toy decoder
z = flat.clone().requires_grad_()
zq = vq._embedding.weight.detach()[z.detach().argmin(-1) % 5]
st = z + (zq - z).detach()
dec = nn.Linear(3, 2)
with torch.no_grad():
    dec.weight.copy_(torch.tensor([[0.5, -0.5, 1.0], [0.2, 0.3, -0.1]]))
    dec.bias.zero_()
out = dec(st).pow(2).sum()
out.backward()
print(torch.equal(st, zq), z.grad[:2], st.grad_fn.name())

# EMA codebook update (VQ-VAE-2 style)
decay, eps = 0.99, 1e-5
K, D = 5, 3
ema_cluster_size = torch.zeros(K)
ema_w = vq._embedding.weight.detach().clone()
onehot = F.one_hot(idx, K).type(flat.dtype)
for step in range(2):
    ema_cluster_size.mul_(decay).add_(onehot.sum(0), alpha=1 - decay)
    dw = onehot.t() @ flat
    ema_w.mul_(decay).add_(dw, alpha=1 - decay)
    n = ema_cluster_size.sum()
    cluster_size = (ema_cluster_size + eps) / (n + K * eps) * n
    vq._embedding.weight.data.copy_(ema_w / cluster_size.unsqueeze(1))
print(ema_cluster_size, cluster_size)
print(vq._embedding.weight[:2])
print(torch.bincount(idx, minlength=K), torch.zeros(K, D).index_add_(0, idx, flat)[:2])
