# MAE-style masked autoencoders, patchify with reshape + einsum('nchpwq->nhwpqc'), per-sample random
# masking through argsort of noise, gather with ids_keep, ids_restore, mask tokens appended and
# unshuffled, and the normalized-pixel loss (loss * mask).sum() / mask.sum(); noise here is sin-based.
import torch
import torch.nn as nn


def patchify(imgs, p):
    h = w = imgs.shape[2] // p
    x = imgs.reshape(shape=(imgs.shape[0], 3, h, p, w, p))
    x = torch.einsum("nchpwq->nhwpqc", x)
    return x.reshape(shape=(imgs.shape[0], h * w, p ** 2 * 3))


def unpatchify(x, p):
    h = w = int(x.shape[1] ** 0.5)
    x = x.reshape(shape=(x.shape[0], h, w, p, p, 3))
    x = torch.einsum("nhwpqc->nchpwq", x)
    return x.reshape(shape=(x.shape[0], 3, h * p, h * p))


def random_masking(x, mask_ratio, noise):
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    ids_shuffle = torch.argsort(noise, dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    ids_keep = ids_shuffle[:, :len_keep]
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D))
    mask = torch.ones([N, L], device=x.device)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return x_masked, mask, ids_restore


imgs = torch.sin(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.13).view(2, 3, 8, 8)
patches = patchify(imgs, 4)
print("patches", tuple(patches.shape), torch.equal(unpatchify(patches, 4), imgs))

embed = nn.Linear(48, 6)
decoder = nn.Linear(6, 48)
mask_token = nn.Parameter(torch.zeros(1, 1, 6))
with torch.no_grad():
    for i, p in enumerate([*embed.parameters(), *decoder.parameters()]):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view_as(p) * 0.2)
    mask_token.fill_(0.05)

noise = torch.stack([torch.sin(torch.arange(4.0) * 1.7), torch.cos(torch.arange(4.0) * 2.3)])
opt = torch.optim.AdamW([*embed.parameters(), *decoder.parameters(), mask_token], lr=0.02, betas=(0.9, 0.95))
for step in range(5):
    x = embed(patches)
    x, mask, ids_restore = random_masking(x, 0.5, noise)
    if step == 0:
        print("kept", tuple(x.shape), "mask", mask, "ids_restore", ids_restore)
    mask_tokens = mask_token.repeat(x.shape[0], ids_restore.shape[1] - x.shape[1], 1)
    x_ = torch.cat([x, mask_tokens], dim=1)
    x_ = torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).repeat(1, 1, x.shape[2]))
    pred = decoder(x_)
    target = patches
    mean = target.mean(dim=-1, keepdim=True)
    var = target.var(dim=-1, keepdim=True)
    target = (target - mean) / (var + 1.0e-6) ** 0.5
    loss = (pred - target) ** 2
    loss = loss.mean(dim=-1)
    loss = (loss * mask).sum() / mask.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print("mask_token grad", mask_token.grad.round(decimals=5))
print("recon", unpatchify(pred, 4).shape, pred.grad_fn.name())
