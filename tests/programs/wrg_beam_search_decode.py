# Beam search and greedy CTC decoding as in seq2seq eval code: log_softmax + topk over flattened
# beam*vocab scores, gather/index_select to reorder beam histories, unique_consecutive to collapse.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)
vocab, beam, steps, eos = 6, 3, 5, 5


def step_logits(prefix):
    # deterministic "model": logits depend on the last token and the step
    last = prefix[:, -1].float()
    t = prefix.size(1)
    return torch.cos(torch.arange(vocab).float()[None, :] * (last[:, None] + 1) * 0.7 + t)


beams = torch.zeros(1, 1, dtype=torch.long)
scores = torch.zeros(1)
finished = []
for t in range(steps):
    logp = F.log_softmax(step_logits(beams), dim=-1)
    cand = (scores[:, None] + logp).view(-1)
    top_scores, top_idx = cand.topk(min(beam, cand.numel()))
    origin = torch.div(top_idx, vocab, rounding_mode="floor")
    token = top_idx % vocab
    beams = torch.cat([beams.index_select(0, origin), token[:, None]], dim=1)
    scores = top_scores
    done = token == eos
    if done.any():
        for b, s in zip(beams[done], scores[done]):
            finished.append((b.tolist(), round(s.item(), 4)))
        beams, scores = beams[~done], scores[~done]
    print(t, "origin", origin.tolist(), "token", token.tolist(), "scores", scores)
    if beams.numel() == 0:
        break
print("finished", finished)
lengths = torch.tensor([len(b) for b, _ in finished] + [beams.size(1)] * beams.size(0))
print("lengths", lengths)
norm = torch.tensor([s for _, s in finished] + scores.tolist()) / lengths.float() ** 0.6
print("length-normalized", norm, norm.argmax())

# batched beam reorder with gather
B, K, T = 2, 3, 4
hist = torch.arange(B * K * T).view(B, K, T)
parent = torch.tensor([[2, 0, 0], [1, 1, 2]])
reordered = hist.gather(1, parent[:, :, None].expand(-1, -1, T))
print(reordered)
flat = hist.view(B * K, T)[(parent + torch.arange(B)[:, None] * K).view(-1)].view(B, K, T)
print(torch.equal(flat, reordered))

# greedy CTC decoding
blank = 0
emissions = torch.stack([torch.sin(torch.arange(5).float() * (i % 4 + 1) + i * 0.2) for i in range(12)])
path = emissions.argmax(dim=-1)
print("path", path)
collapsed = torch.unique_consecutive(path)
print("decoded", collapsed[collapsed != blank])
batch_paths = torch.stack([path, path.roll(3)])
keep = torch.ones_like(batch_paths, dtype=torch.bool)
keep[:, 1:] = batch_paths[:, 1:] != batch_paths[:, :-1]
keep &= batch_paths != blank
decoded = [p[k] for p, k in zip(batch_paths, keep)]
print(decoded)
print(torch.nn.utils.rnn.pad_sequence(decoded, batch_first=True, padding_value=-1))

# top-p (nucleus) filtering
logits = torch.tensor([[2.0, 1.0, 0.5, 0.1, -1.0, 3.0], [0.0, 0.0, 1.0, 1.0, 2.0, -2.0]])
sorted_logits, sorted_idx = logits.sort(dim=-1, descending=True)
cum = sorted_logits.softmax(-1).cumsum(-1)
remove = cum > 0.8
remove[..., 1:] = remove[..., :-1].clone()
remove[..., 0] = False
mask = remove.scatter(1, sorted_idx, remove)
print(mask)
print(logits.masked_fill(mask, float("-inf")).softmax(-1))
# top-k filtering
kth = logits.topk(2, dim=-1).values[..., -1, None]
print(torch.where(logits < kth, torch.full_like(logits, float("-inf")), logits))
