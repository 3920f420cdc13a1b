# A tiny attention classifier compiled with torch.compile: view/permute/einsum/masked_fill/softmax,
# layer_norm, cat, where, indexing and cross_entropy inside one compiled function, with gradients.
import torch
import torch.nn.functional as F


def attention(x, wq, wk, wv, mask, heads: int):
    b, t, d = x.shape
    q = (x @ wq).view(b, t, heads, d // heads).permute(0, 2, 1, 3)
    k = (x @ wk).view(b, t, heads, d // heads).permute(0, 2, 1, 3)
    v = (x @ wv).view(b, t, heads, d // heads).transpose(1, 2)
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / (d // heads) ** 0.5
    scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
    attn = scores.softmax(dim=-1)
    out = (attn @ v).transpose(1, 2).reshape(b, t, d)
    return F.layer_norm(out + x, (d,)), attn


compiled_attention = torch.compile(attention)

x = torch.linspace(-1.0, 1.0, 2 * 3 * 4).view(2, 3, 4)
wq = torch.eye(4) * 0.5
wk = torch.arange(16.0).view(4, 4) / 16
wv = (torch.arange(16.0).view(4, 4) % 3 - 1) / 2
mask = torch.tensor([[True, True, False], [True, True, True]])

out, attn = compiled_attention(x, wq, wk, wv, mask, 2)
ref_out, ref_attn = attention(x, wq, wk, wv, mask, 2)
print(out.shape, attn.shape, out.dtype)
print(attn[0, 0])
print(out[1])
print(torch.allclose(out, ref_out, atol=1e-6), torch.allclose(attn, ref_attn, atol=1e-6))
print(attn[0, :, :, 2].abs().sum(), attn.sum(-1)[1])

out1, attn1 = compiled_attention(x, wq, wk, wv, mask, 1)
print(attn1.shape, out1[0, 0])


@torch.compile
def classify(x, w, targets, mask):
    pooled = torch.where(mask[..., None], x, torch.zeros_like(x)).sum(1) / mask.sum(1, keepdim=True)
    feats = torch.cat([pooled, x[:, 0], x[:, -1].abs()], dim=-1)
    logits = feats @ w
    loss = F.cross_entropy(logits, targets, label_smoothing=0.1)
    return loss, logits.argmax(-1), logits.log_softmax(-1)


w = (torch.arange(36.0).view(12, 3) % 5 - 2).div(4).requires_grad_()
targets = torch.tensor([2, 0])
loss, pred, logp = classify(out.detach(), w, targets, mask)
print(loss, pred, pred.dtype)
print(logp)
loss.backward()
print(w.grad[:4])
print(loss.grad_fn is not None, logp.requires_grad, pred.requires_grad)

xg = x.clone().requires_grad_()
o, a = compiled_attention(xg, wq, wk, wv, mask, 2)
(o * torch.arange(4.0)).sum().backward()
print(xg.grad[0])
