# HF generate()-style logits processors written by hand: temperature, top-k, top-p (sort, cumsum,
# scatter back), min-p, repetition penalty (gather / where / scatter_), EOS bookkeeping with
# unfinished_sequences, and beam-search index arithmetic (topk over beams * vocab, floor division).
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 1.0, 0.5, -1.0, 3.0, 0.0],
                       [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])
filter_value = -float("Inf")

# temperature
for temperature in (0.5, 1.0, 2.0):
    probs = F.softmax(logits / temperature, dim=-1)
    print(temperature, probs[0], torch.allclose(probs.sum(-1), torch.ones(2)))

# top-k
top_k = 3
indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
print(indices_to_remove)
topk_logits = logits.masked_fill(indices_to_remove, filter_value)
print(topk_logits, F.softmax(topk_logits, dim=-1)[0])
v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
print(torch.where(logits < v[:, [-1]], torch.full_like(logits, -float("inf")), logits)[1])

# top-p (nucleus)
top_p = 0.8
sorted_logits, sorted_indices = torch.sort(logits, descending=False)
cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
sorted_indices_to_remove[..., -1:] = 0
print(sorted_indices, cumulative_probs)
indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
print(indices_to_remove, indices_to_remove.dtype)
print(logits.masked_fill(indices_to_remove, filter_value))

# older "descending" variant with the shift-right trick
s_logits, s_idx = torch.sort(logits, descending=True)
cum = torch.cumsum(F.softmax(s_logits, dim=-1), dim=-1)
remove = cum > top_p
remove[..., 1:] = remove[..., :-1].clone()
remove[..., 0] = 0
print(remove)
out = logits.clone()
for b in range(out.size(0)):
    out[b, s_idx[b][remove[b]]] = filter_value
print(out)

# min-p
probs = torch.softmax(logits, dim=-1)
top_probs, _ = probs.max(dim=-1, keepdim=True)
print(probs < 0.2 * top_probs)

# repetition penalty
input_ids = torch.tensor([[4, 0, 4], [5, 1, 2]])
penalty = 1.2
score = torch.gather(logits, 1, input_ids)
score = torch.where(score < 0, score * penalty, score / penalty)
penalized = logits.clone().scatter_(1, input_ids, score)
print(score, penalized)

# sampling from a one-hot distribution is deterministic; EOS bookkeeping
eos_token_id, pad_token_id = 5, 0
peaked = torch.full_like(logits, -1e4)
peaked[0, 5] = 0.0
peaked[1, 2] = 0.0
next_tokens = torch.multinomial(F.softmax(peaked, dim=-1), num_samples=1).squeeze(1)
unfinished_sequences = torch.ones(2, dtype=torch.long)
next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
unfinished_sequences = unfinished_sequences & ~(next_tokens == eos_token_id)
print(next_tokens, unfinished_sequences, unfinished_sequences.max() == 0, unfinished_sequences.dtype)
input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
print(input_ids)
print(torch.isin(input_ids, torch.tensor([eos_token_id, pad_token_id])))

# beam search: 2 batches x 2 beams
num_beams, vocab = 2, 3
beam_scores = torch.tensor([[0.0, -1.5], [0.0, -0.25]]).view(-1)
next_token_scores = F.log_softmax(torch.arange(12.0).view(4, 3) % 5 / 2, dim=-1)
next_token_scores = next_token_scores + beam_scores[:, None].expand_as(next_token_scores)
next_token_scores = next_token_scores.view(2, num_beams * vocab)
next_scores, next_tokens = torch.topk(next_token_scores, 2 * num_beams, dim=1, largest=True, sorted=True)
next_indices = torch.div(next_tokens, vocab, rounding_mode="floor")
print(next_scores)
print(next_tokens, next_indices, next_tokens % vocab, next_tokens // vocab)

# HF initialises all but the first beam to -1e9, so the first step's candidates tie on the others
beam_scores = torch.zeros(2, num_beams)
beam_scores[:, 1:] = -1e9
scores = F.log_softmax(torch.tensor([[1.0, 2.0, 0.5]]).repeat(4, 1), dim=-1) + beam_scores.view(-1)[:, None]
top_scores, top_tokens = torch.topk(scores.view(2, num_beams * vocab), 2 * num_beams, dim=1)
print(top_scores)
print(top_tokens, top_tokens // vocab, top_tokens % vocab)
try:
    torch.multinomial(torch.tensor([[0.5, -0.1]]), 1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.topk(logits, 7)
except RuntimeError as e:
    print(type(e).__name__, e)
