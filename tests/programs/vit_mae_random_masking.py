# MAE-style random masking as in the reference repo, with a deterministic "noise" instead of rand:
# argsort/argsort for ids_restore, torch.gather with index.unsqueeze(-1).repeat, mask tokens
# appended and unshuffled, patchify/unpatchify with einsum('nchpwq->nhwpqc'), masked MSE loss.
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


def random_masking(x, noise, mask_ratio):
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


N, p, D = 2, 2, 6
imgs = torch.sin(torch.arange(N * 3 * 8 * 8, dtype=torch.float32) * 0.07).view(N, 3, 8, 8)
target = patchify(imgs, p)
print(target.shape, torch.equal(unpatchify(target, p), imgs))

embed = nn.Linear(3 * p * p, D)
dec = nn.Linear(D, 3 * p * p)
mask_token = nn.Parameter(torch.zeros(1, 1, D))
with torch.no_grad():
    for i, prm in enumerate([embed.weight, embed.bias, dec.weight, dec.bias, mask_token]):
        prm.copy_(torch.cos(torch.arange(prm.numel(), dtype=torch.float32) * 0.5 + i).view_as(prm) * 0.2)

L = target.shape[1]
noise = torch.remainder(torch.arange(N * L, dtype=torch.float32) * 7.3, 5.1).view(N, L)
opt = torch.optim.Adam(list(embed.parameters()) + list(dec.parameters()) + [mask_token], lr=0.01)
for step in range(15):
    x = embed(target)
    x_masked, mask, ids_restore = random_masking(x, noise, 0.75)
    mask_tokens = mask_token.repeat(x_masked.shape[0], ids_restore.shape[1] - x_masked.shape[1], 1)
    x_ = torch.cat([x_masked, mask_tokens], dim=1)
    x_ = torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).repeat(1, 1, x_masked.shape[2]))
    pred = dec(x_)
    mean = target.mean(dim=-1, keepdim=True)
    var = target.var(dim=-1, keepdim=True)
    norm_t = (target - mean) / (var + 1.0e-6) ** 0.5
    loss = ((pred - norm_t) ** 2).mean(dim=-1)
    loss = (loss * mask).sum() / mask.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.4f}")

print(x_masked.shape, mask.shape, mask.sum(1), ids_restore[0])
print(mask[1])
print(x_.grad_fn.name(), pred.grad_fn.name(), mask_token.grad.shape)
print(mask_token.grad.view(-1))
rec = unpatchify(pred * mask.unsqueeze(-1) + target * (1 - mask.unsqueeze(-1)), p)
print(rec.shape, f"{(rec - imgs).abs().max().item():.3f}")
