# Post-processing / regularisers from weakly-supervised segmentation repos: a mean-field CRF step with
# spatial Gaussian message passing (depthwise conv) and bilateral affinities via F.unfold, plus a
# pixel-affinity consistency loss and entropy minimisation on softmax outputs.
import math
import torch
import torch.nn.functional as F

N, C, H, W = 1, 3, 7, 8
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
img = torch.stack([torch.sin(xx / 2), torch.cos(yy / 3), (xx - yy) / 8]).unsqueeze(0)
unary = torch.stack([torch.sin(xx / 3 + k) * 2 + torch.cos(yy / 2 - k) for k in range(C)]).unsqueeze(0)

k = 5
ax = torch.arange(k, dtype=torch.float32) - k // 2
g1 = torch.exp(-ax ** 2 / (2 * 1.5 ** 2))
g2 = torch.outer(g1, g1)
g2[k // 2, k // 2] = 0
kernel = (g2 / g2.sum()).expand(C, 1, k, k).contiguous()
print(kernel.shape, kernel[0, 0, 2].numpy().round(4), kernel.is_contiguous())

patches = F.unfold(img, k, padding=k // 2).view(N, 3, k * k, H, W)
diff = patches - img.unsqueeze(2)
bilateral = torch.exp(-(diff ** 2).sum(1) / (2 * 0.5 ** 2))
bilateral[:, k * k // 2] = 0
print(bilateral.shape, f"{bilateral.sum().item():.3f}", bilateral[0, :, 3, 4].view(k, k)[2].numpy().round(4))

compat = 1 - torch.eye(C)
q = F.softmax(unary, dim=1)
for it in range(3):
    spatial = F.conv2d(F.pad(q, (k // 2,) * 4, mode="replicate"), kernel, groups=C)
    qp = F.unfold(q, k, padding=k // 2).view(N, C, k * k, H, W)
    bil = (qp * bilateral.unsqueeze(1)).sum(2) / bilateral.sum(1, keepdim=True).clamp(min=1e-6)
    msg = 1.0 * spatial + 2.0 * bil
    pairwise = torch.einsum("ij,njhw->nihw", compat, msg)
    q = F.softmax(unary - pairwise, dim=1)
    ent = -(q * torch.log(q + 1e-8)).sum(1).mean()
    print(it, f"{ent.item():.4f}", (q.argmax(1) != unary.argmax(1)).sum().item())
print(q.argmax(1)[0])

logits = unary.clone().requires_grad_()
p = F.softmax(logits, 1)
pp = F.unfold(p, 3, padding=1).view(N, C, 9, H, W)
agree = (pp * p.unsqueeze(2)).sum(1)
aff = F.unfold(img, 3, padding=1).view(N, 3, 9, H, W).sub(img.unsqueeze(2)).pow(2).sum(1).neg().exp()
loss = (aff * (1 - agree)).mean() + 0.1 * (-(p * F.log_softmax(logits, 1)).sum(1).mean())
loss.backward()
print(f"{loss.item():.5f}", logits.grad.shape, logits.grad[0, :, 3, 3].numpy().round(5))
print(f"{math.log(C):.4f}", torch.special.entr(p).sum(1).max().item() <= math.log(C) + 1e-6)
