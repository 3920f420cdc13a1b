# Hand-written linear-chain CRF for NER tagging (BiLSTM-CRF tutorial style): forward algorithm
# with torch.logsumexp over the previous-tag dim, gold path score via gather, masking of padded
# steps, Viterbi with max/argmax and backtracking via gather, training with Adam.
import torch
import torch.nn as nn

T = 4  # tags
START, STOP = 3, 2


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.transitions = nn.Parameter(torch.zeros(num_tags, num_tags))  # [to, from]
        self.start = nn.Parameter(torch.zeros(num_tags))
        self.end = nn.Parameter(torch.zeros(num_tags))

    def log_partition(self, emissions, mask):
        # emissions (B, L, T), mask (B, L) bool
        alpha = self.start + emissions[:, 0]
        for t in range(1, emissions.size(1)):
            scores = alpha.unsqueeze(1) + self.transitions.unsqueeze(0) + emissions[:, t].unsqueeze(2)
            nxt = torch.logsumexp(scores, dim=2)
            alpha = torch.where(mask[:, t].unsqueeze(1), nxt, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)

    def gold_score(self, emissions, tags, mask):
        B, L, _ = emissions.shape
        emit = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)
        trans = self.transitions[tags[:, 1:], tags[:, :-1]]
        m = mask.float()
        score = self.start[tags[:, 0]] + (emit * m).sum(1) + (trans * m[:, 1:]).sum(1)
        last = tags.gather(1, (mask.sum(1) - 1).unsqueeze(1)).squeeze(1)
        return score + self.end[last]

    def nll(self, emissions, tags, mask):
        return (self.log_partition(emissions, mask) - self.gold_score(emissions, tags, mask)).mean()

    def viterbi(self, emissions, mask):
        score = self.start + emissions[:, 0]
        history = []
        for t in range(1, emissions.size(1)):
            s = score.unsqueeze(1) + self.transitions.unsqueeze(0)
            best, idx = s.max(dim=2)
            nxt = best + emissions[:, t]
            score = torch.where(mask[:, t].unsqueeze(1), nxt, score)
            history.append(torch.where(mask[:, t].unsqueeze(1), idx, torch.arange(T).expand_as(idx)))
        score = score + self.end
        best_score, best_last = score.max(dim=1)
        path = [best_last]
        for idx in reversed(history):
            best_last = idx.gather(1, best_last.unsqueeze(1)).squeeze(1)
            path.append(best_last)
        return best_score, torch.stack(path[::-1], dim=1)


L = 5
emissions = torch.sin(torch.arange(2 * L * T, dtype=torch.float32).reshape(2, L, T) * 0.9) * 2
tags = torch.tensor([[0, 1, 1, 2, 0], [1, 0, 3, 0, 0]])
lengths = torch.tensor([5, 3])
mask = torch.arange(L)[None] < lengths[:, None]

crf = CRF(T)
with torch.no_grad():
    crf.transitions.copy_(torch.cos(torch.arange(T * T, dtype=torch.float32)).reshape(T, T) * 0.5)
print("logZ", crf.log_partition(emissions, mask))
print("gold", crf.gold_score(emissions, tags, mask))
best, path = crf.viterbi(emissions, mask)
print("viterbi", best, path)
print(path * mask)

emissions = emissions.clone().requires_grad_()
opt = torch.optim.Adam([emissions, *crf.parameters()], lr=0.1)
for step in range(20):
    opt.zero_grad()
    loss = crf.nll(emissions, tags, mask)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} nll {loss.item():.4f}")
print(crf.transitions.grad)
print(emissions.grad[1])
best, path = crf.viterbi(emissions.detach(), mask)
print(path, (path == tags)[mask].float().mean())

# brute-force check of the partition function for sequence 0
import itertools
with torch.no_grad():
    e = emissions[0]
    all_scores = []
    for seq in itertools.product(range(T), repeat=L):
        s = torch.tensor(seq)
        sc = crf.start[s[0]] + e[torch.arange(L), s].sum() + crf.transitions[s[1:], s[:-1]].sum() + crf.end[s[-1]]
        all_scores.append(sc)
    print(f"{torch.stack(all_scores).logsumexp(0).item():.4f} {crf.log_partition(emissions[:1], mask[:1]).item():.4f}")
