# Beam search over a tiny GRU decoder as in seq2seq tutorials: log_softmax scores, topk over the
# flattened (beam * vocab) scores, // and % to recover beam and token ids, index_select of hidden
# states, finished hypotheses with EOS masked by masked_fill(-inf), length-normalised final scores,
# and backtracking through stored back-pointers with gather.
import torch
import torch.nn as nn
import torch.nn.functional as F

V, H, BEAM, MAXLEN, SOS, EOS = 7, 6, 3, 6, 0, 1


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.cell = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)

    def forward(self, tok, h):
        h = self.cell(self.emb(tok), h)
        return F.log_softmax(self.out(h), dim=-1), h


dec = Decoder()
with torch.no_grad():
    for i, (n, p) in enumerate(dec.named_parameters()):
        p.copy_((torch.arange(p.numel(), dtype=torch.float32) * (0.53 + 0.07 * i)).sin().reshape(p.shape) * 0.9)

h = torch.linspace(-0.5, 0.5, H).unsqueeze(0).repeat(BEAM, 1)
tokens = torch.full((BEAM,), SOS, dtype=torch.long)
beam_scores = torch.tensor([0.0] + [float("-inf")] * (BEAM - 1))
finished = torch.zeros(BEAM, dtype=torch.bool)
lengths = torch.zeros(BEAM)
history_tok, history_ptr = [], []
with torch.no_grad():
    for step in range(MAXLEN):
        logp, h = dec(tokens, h)
        # a finished beam may only extend with EOS at no cost
        logp = logp.masked_fill(finished[:, None], float("-inf"))
        logp[:, EOS] = torch.where(finished, torch.zeros(BEAM), logp[:, EOS])
        cand = beam_scores[:, None] + logp                       # (BEAM, V)
        top_scores, flat_idx = cand.view(-1).topk(BEAM)
        beam_idx = flat_idx // V
        tok_idx = flat_idx % V
        h = h.index_select(0, beam_idx)
        finished = finished.index_select(0, beam_idx) | (tok_idx == EOS)
        lengths = lengths.index_select(0, beam_idx) + (~finished).float()
        beam_scores, tokens = top_scores, tok_idx
        history_tok.append(tok_idx)
        history_ptr.append(beam_idx)
        print(step, [round(s, 4) for s in beam_scores.tolist()], tok_idx.tolist(), beam_idx.tolist(), finished.tolist())
        if finished.all():
            break

norm = beam_scores / (lengths + 1) ** 0.7
print(norm, norm.argmax())
# backtrack
seqs = torch.zeros(BEAM, len(history_tok), dtype=torch.long)
ptr = torch.arange(BEAM)
for t in range(len(history_tok) - 1, -1, -1):
    seqs[:, t] = history_tok[t].gather(0, ptr)
    ptr = history_ptr[t].gather(0, ptr)
print(seqs)
best = seqs[norm.argmax()]
print(best.tolist(), (best == EOS).nonzero().flatten().tolist())

# greedy for comparison
with torch.no_grad():
    tok, hg, out = torch.tensor([SOS]), h[:1] * 0 + torch.linspace(-0.5, 0.5, H), []
    total = 0.0
    for _ in range(MAXLEN):
        logp, hg = dec(tok, hg)
        val, tok = logp.max(-1)
        total += val.item()
        out.append(tok.item())
        if tok.item() == EOS:
            break
print(out, round(total, 4))
