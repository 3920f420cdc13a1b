# HuggingFace-style logits processing for generation: temperature, top-k filtering with
# topk(...)[0][..., -1, None] and masked_fill(-inf), nucleus (top-p) filtering via sort, softmax,
# cumsum, shifting the removal mask right and scattering it back, repetition penalty with
# gather/scatter, then the resulting distributions, their entropy and greedy choices.
import torch
import torch.nn.functional as F


def top_k_filter(logits, k):
    kth = torch.topk(logits, k)[0][..., -1, None]
    return logits.masked_fill(logits < kth, float("-inf"))


def top_p_filter(logits, p, min_keep=1):
    sorted_logits, sorted_idx = torch.sort(logits, descending=True)
    cum = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    remove = cum > p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., :min_keep] = False
    mask = remove.scatter(1, sorted_idx, remove)
    return logits.masked_fill(mask, float("-inf"))


def repetition_penalty(logits, prev, penalty):
    score = torch.gather(logits, 1, prev)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return logits.scatter(1, prev, score)


V = 12
logits = (torch.arange(3 * V, dtype=torch.float32).reshape(3, V) * 0.77).sin() * 4
print(logits)
t = logits / 0.7
print(F.softmax(t, dim=-1).max(-1))
k = top_k_filter(t, 4)
print(k)
pk = F.softmax(k, dim=-1)
print(pk, (pk > 0).sum(-1))
p = top_p_filter(t, 0.8)
pp = F.softmax(p, dim=-1)
print(pp)
print((pp > 0).sum(-1), pp.sum(-1))
both = top_p_filter(top_k_filter(t, 5), 0.9)
print(F.log_softmax(both, dim=-1))
prev = torch.tensor([[1, 3], [0, 0], [11, 5]])
r = repetition_penalty(logits, prev, 1.3)
print(r[:, :6])
probs = F.softmax(r, dim=-1)
entropy = -(probs * probs.clamp_min(1e-12).log()).sum(-1)
print(entropy)
ent2 = torch.special.entr(probs).sum(-1)
print(ent2)
print(probs.argmax(-1), r.argmax(-1), torch.multinomial(F.one_hot(r.argmax(-1), V).float(), 1).squeeze(1))
lp = F.log_softmax(both, dim=-1)
print(torch.logsumexp(both, -1), torch.isinf(lp).sum(-1))
print(lp.max(-1))
