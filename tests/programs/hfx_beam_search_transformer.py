# Beam search over a batch_first nn.Transformer decoder, written the way seq2seq repos do it:
# log_softmax scores, topk over the flattened (beam * vocab) scores, // and % to recover the
# beam and token, gather/index_select of histories, masked_fill for finished beams, length penalty.
import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, BOS, EOS = 7, 8, 1, 2
emb = nn.Embedding(V, D)
model = nn.Transformer(D, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=16,
                       dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
proj = nn.Linear(D, V)
with torch.no_grad():
    for mod in (emb, model, proj):
        for i, p in enumerate(mod.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + 0.9 * i).view(p.shape) * (0.3 + 0.1 * (i % 3)))
model.eval()

src = torch.tensor([[3, 4, 5, 6], [6, 5, 4, 0]])
src_pad = src == 0
with torch.no_grad():
    memory = model.encoder(emb(src), src_key_padding_mask=src_pad)
print(memory.shape, memory[0, 0, :4])

beam, max_len, alpha = 3, 5, 0.7
B = src.size(0)
mem = memory.repeat_interleave(beam, dim=0)            # (B*beam, S, D)
mem_pad = src_pad.repeat_interleave(beam, dim=0)
seqs = torch.full((B * beam, 1), BOS, dtype=torch.long)
scores = torch.zeros(B, beam)
scores[:, 1:] = float("-inf")                            # only one live beam at the start
scores = scores.view(-1)
finished = torch.zeros(B * beam, dtype=torch.bool)
with torch.no_grad():
    for t in range(max_len):
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(seqs.size(1))
        out = model.decoder(emb(seqs), mem, tgt_mask=tgt_mask, memory_key_padding_mask=mem_pad)
        logp = F.log_softmax(proj(out[:, -1]), dim=-1)   # (B*beam, V)
        # finished beams may only extend with EOS at no cost
        logp = logp.masked_fill(finished.unsqueeze(1), float("-inf"))
        logp[:, EOS] = torch.where(finished, torch.zeros(()), logp[:, EOS])
        cand = (scores.unsqueeze(1) + logp).view(B, beam * V)
        top_scores, top_idx = cand.topk(beam, dim=1)
        beam_idx = top_idx // V
        tok = top_idx % V
        base = (torch.arange(B) * beam).unsqueeze(1)
        sel = (base + beam_idx).view(-1)
        seqs = torch.cat([seqs.index_select(0, sel), tok.view(-1, 1)], dim=1)
        scores = top_scores.view(-1)
        finished = finished.gather(0, sel) | (tok.view(-1) == EOS)
        print(t, tok.tolist(), [round(s, 3) for s in top_scores.view(-1).tolist()])
        if finished.all():
            break

lengths = ((seqs != EOS).cumsum(1) == torch.arange(1, seqs.size(1) + 1)).sum(1) + 1
lengths = lengths.clamp(max=seqs.size(1))
penalty = ((5 + lengths.float()) / 6) ** alpha
normed = (scores / penalty).view(B, beam)
best = normed.argmax(1)
print(seqs.view(B, beam, -1))
print(lengths.view(B, beam), normed.round(decimals=3))
print(best, seqs.view(B, beam, -1)[torch.arange(B), best])
print(torch.gather(normed, 1, best.unsqueeze(1)).squeeze(1).round(decimals=3))
