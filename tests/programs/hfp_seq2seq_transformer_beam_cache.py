# Marian/T5-ish seq2seq on nn.Transformer: generate_square_subsequent_mask, tgt_is_causal,
# memory_key_padding_mask, beam search over num_beams*vocab with topk, floor-div beam indices,
# _reorder_cache via index_select, length penalty, and BeamScorer-style finished hypotheses.
import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab=14, d=8):
        super().__init__()
        self.shared = nn.Embedding(vocab, d, padding_idx=0)
        self.transformer = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=1, num_decoder_layers=2,
                                          dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.shared.weight

    def encode(self, src, src_key_padding_mask):
        return self.transformer.encoder(self.shared(src), src_key_padding_mask=src_key_padding_mask)

    def decode(self, tgt, memory, memory_key_padding_mask):
        t = tgt.shape[1]
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(t)
        out = self.transformer.decoder(self.shared(tgt), memory, tgt_mask=tgt_mask, tgt_is_causal=True,
                                       memory_key_padding_mask=memory_key_padding_mask)
        return self.lm_head(out)


model = Seq2Seq()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).view_as(p) * 0.7)
model.eval()
print(nn.Transformer.generate_square_subsequent_mask(4))
print(len(list(model.parameters())), "tied:", model.lm_head.weight is model.shared.weight)

src = torch.tensor([[5, 6, 7, 8], [9, 10, 0, 0]])
src_pad = src == 0


def _reorder_cache(memory, pad, beam_idx):
    return memory.index_select(0, beam_idx), pad.index_select(0, beam_idx)


@torch.no_grad()
def beam_search(src, src_pad, num_beams=3, max_len=6, bos=1, eos=2, length_penalty=1.0):
    batch = src.shape[0]
    memory = model.encode(src, src_pad)
    memory = memory.repeat_interleave(num_beams, dim=0)
    pad = src_pad.repeat_interleave(num_beams, dim=0)
    seqs = torch.full((batch * num_beams, 1), bos)
    beam_scores = torch.zeros(batch, num_beams)
    beam_scores[:, 1:] = -1e9
    beam_scores = beam_scores.view(-1)
    finished = [[] for _ in range(batch)]
    for step in range(max_len):
        logits = model.decode(seqs, memory, pad)[:, -1, :]
        logp = torch.log_softmax(logits, dim=-1)
        vocab = logp.shape[-1]
        next_scores = (logp + beam_scores[:, None]).view(batch, num_beams * vocab)
        top_scores, top_tokens = torch.topk(next_scores, 2 * num_beams, dim=1, largest=True, sorted=True)
        beam_origin = torch.div(top_tokens, vocab, rounding_mode="floor")
        token_ids = top_tokens % vocab
        new_idx, new_tok, new_scores = [], [], []
        for b in range(batch):
            for score, origin, tok in zip(top_scores[b].tolist(), beam_origin[b].tolist(), token_ids[b].tolist()):
                gi = b * num_beams + origin
                if tok == eos:
                    hyp = seqs[gi].tolist() + [eos]
                    finished[b].append((score / (len(hyp) - 1) ** length_penalty, hyp))
                    continue
                new_idx.append(gi); new_tok.append(tok); new_scores.append(score)
                if len(new_idx) == (b + 1) * num_beams:
                    break
        beam_idx = torch.tensor(new_idx)
        memory, pad = _reorder_cache(memory, pad, beam_idx)
        seqs = torch.cat([seqs.index_select(0, beam_idx), torch.tensor(new_tok)[:, None]], dim=-1)
        beam_scores = torch.tensor(new_scores)
    for b in range(batch):
        for i in range(num_beams):
            gi = b * num_beams + i
            finished[b].append((beam_scores[gi].item() / (seqs.shape[1] - 1) ** length_penalty, seqs[gi].tolist()))
    return [sorted(f, key=lambda x: -x[0])[:2] for f in finished]


for b, hyps in enumerate(beam_search(src, src_pad)):
    for score, hyp in hyps:
        print(b, f"{score:.4f}", hyp)

mem = model.encode(src, src_pad)
print(mem.shape, "pad rows finite:", torch.isfinite(mem).all().item())
logits = model.decode(torch.tensor([[1, 4, 4], [1, 3, 3]]), mem, src_pad)
print(torch.round(logits[:, -1, :6], decimals=3))
model.train()
tgt = torch.tensor([[1, 4, 5, 2], [1, 3, 2, 0]])
labels = torch.tensor([[4, 5, 2, -100], [3, 2, -100, -100]])
out = model.decode(tgt, model.encode(src, src_pad), src_pad)
loss = nn.functional.cross_entropy(out.view(-1, out.size(-1)), labels.view(-1), ignore_index=-100)
loss.backward()
print(f"loss {loss.item():.4f}", f"{model.shared.weight.grad.norm().item():.4f}")
