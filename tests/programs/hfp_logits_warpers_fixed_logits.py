# generation/logits_process.py-style warpers applied to fixed logits: temperature,
# repetition penalty (gather/where/scatter), top-k (topk + masked_fill -inf), top-p (sort ascending,
# cumsum, scatter back), min-length eos suppression, no-repeat-ngram ban, then greedy pick.
import torch


class TemperatureLogitsWarper:
    def __init__(self, temperature):
        self.temperature = temperature

    def __call__(self, input_ids, scores):
        return scores / self.temperature


class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        return scores.scatter(1, input_ids, score)


class TopKLogitsWarper:
    def __init__(self, top_k, filter_value=-float("Inf"), min_tokens_to_keep=1):
        self.top_k = max(top_k, min_tokens_to_keep)
        self.filter_value = filter_value

    def __call__(self, input_ids, scores):
        top_k = min(self.top_k, scores.size(-1))
        indices_to_remove = scores < torch.topk(scores, top_k)[0][..., -1, None]
        return scores.masked_fill(indices_to_remove, self.filter_value)


class TopPLogitsWarper:
    def __init__(self, top_p, filter_value=-float("Inf"), min_tokens_to_keep=1):
        self.top_p = top_p
        self.filter_value = filter_value
        self.min_tokens_to_keep = min_tokens_to_keep

    def __call__(self, input_ids, scores):
        sorted_logits, sorted_indices = torch.sort(scores, descending=False)
        cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        sorted_indices_to_remove = cumulative_probs <= (1 - self.top_p)
        sorted_indices_to_remove[..., -self.min_tokens_to_keep :] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        return scores.masked_fill(indices_to_remove, self.filter_value)


class MinLengthLogitsProcessor:
    def __init__(self, min_length, eos_token_id):
        self.min_length = min_length
        self.eos_token_id = torch.tensor([eos_token_id])

    def __call__(self, input_ids, scores):
        vocab_tensor = torch.arange(scores.shape[-1])
        eos_token_mask = torch.isin(vocab_tensor, self.eos_token_id)
        scores_processed = scores.clone()
        if input_ids.shape[-1] < self.min_length:
            scores_processed = torch.where(eos_token_mask, -math_inf, scores)
        return scores_processed


math_inf = float("inf")


class NoRepeatNGramLogitsProcessor:
    def __init__(self, n):
        self.n = n

    def __call__(self, input_ids, scores):
        scores = scores.clone()
        for b, seq in enumerate(input_ids.tolist()):
            prefix = tuple(seq[-(self.n - 1):])
            banned = [seq[i + self.n - 1] for i in range(len(seq) - self.n + 1) if tuple(seq[i:i + self.n - 1]) == prefix]
            scores[b, banned] = -float("inf")
        return scores


vocab = 10
scores = torch.stack([torch.sin(torch.arange(vocab, dtype=torch.float32) * 1.3 + b) * 3 for b in range(3)])
input_ids = torch.tensor([[1, 2, 1, 4], [0, 3, 3, 5], [7, 8, 7, 8]])
print(torch.round(scores, decimals=3))

processors = [
    RepetitionPenaltyLogitsProcessor(1.5),
    MinLengthLogitsProcessor(6, eos_token_id=2),
    NoRepeatNGramLogitsProcessor(2),
    TemperatureLogitsWarper(0.7),
    TopKLogitsWarper(5),
    TopPLogitsWarper(0.8),
]
s = scores
for proc in processors:
    s = proc(input_ids, s)
    kept = torch.isfinite(s).sum(-1).tolist()
    print(f"{type(proc).__name__:34s} kept={kept}")
print(torch.round(s, decimals=3))
probs = torch.softmax(s, dim=-1)
print(torch.round(probs, decimals=4))
print("greedy:", torch.argmax(s, dim=-1).tolist())
print("nonzero per row:", (probs > 0).sum(-1).tolist())
print("row sums:", [f"{v:.4f}" for v in probs.sum(-1).tolist()])
top_probs, top_idx = probs.topk(3)
print(top_idx.tolist(), [[round(v, 4) for v in row] for row in top_probs.tolist()])
log_probs = torch.log_softmax(s, dim=-1)
print(log_probs[0])
entropy = -(probs * log_probs.nan_to_num(neginf=0.0)).sum(-1)
print("entropy:", [f"{e:.4f}" for e in entropy.tolist()])
