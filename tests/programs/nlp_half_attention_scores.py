# Half-precision (float16) dot-product attention and vocabulary softmax on CPU, as in code
# that calls .half() for inference: masked_fill(-inf) then softmax / log_softmax over keys
# (last dim) and over the query dim, logsumexp, top-k tokens and a backward in float16.
import torch
import torch.nn.functional as F

B, Lq, Lk, D = 2, 3, 5, 4
q = torch.linspace(-2, 2, B * Lq * D).reshape(B, Lq, D).half()
k = torch.linspace(1.5, -1.5, B * Lk * D).reshape(B, Lk, D).cos().half() * 2
v = torch.linspace(0, 1, B * Lk * D).reshape(B, Lk, D).half()
lengths = torch.tensor([5, 3])
key_mask = torch.arange(Lk)[None, :] < lengths[:, None]

scores = torch.bmm(q, k.transpose(1, 2)) / D ** 0.5
print(scores.dtype, scores)
scores = scores.masked_fill(~key_mask[:, None, :], float("-inf"))
attn = F.softmax(scores, dim=-1)
print(attn)
print(attn.sum(-1))
print(F.log_softmax(scores, dim=-1))
print(torch.logsumexp(scores, dim=-1))
ctx = torch.bmm(attn, v)
print(ctx)
print(F.softmax(scores[:, :, :3], dim=1))
print(F.log_softmax(scores[:, :, :3], dim=1))

# vocabulary distribution of a tiny "LM head" in half
hidden = torch.linspace(-1, 1, 2 * 8).reshape(2, 8).half()
emb = (torch.arange(30 * 8, dtype=torch.float32).reshape(30, 8) * 0.37).sin().half()
logits = hidden @ emb.T * 3
probs = F.softmax(logits, dim=-1)
print(probs.max(-1), probs.sum(-1))
print(probs.topk(3, dim=-1))
logp = F.log_softmax(logits, dim=-1)
print(logp[:, :8])
nll = -logp.gather(1, torch.tensor([[4], [17]])).squeeze(1)
print(nll, nll.float().mean().exp())

# gradients in float16
h = hidden.clone().requires_grad_()
out = F.log_softmax(h @ emb.T * 3, dim=-1)
out[:, 4].sum().backward()
print(h.grad)
h.grad = None
F.softmax(h @ emb.T, dim=-1)[:, :3].sum().backward()
print(h.grad)
