# The PyTorch chatbot / Bahdanau seq2seq pattern: Embedding(padding_idx) -> pack_padded_sequence
# (enforce_sorted=False) -> bidirectional GRU -> pad_packed_sequence, summed directions, a
# decoder GRU step with "concat" attention masked over padding, teacher forcing, masked NLL.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

V, H, PAD, SOS = 9, 6, 0, 1


class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(V, H, padding_idx=PAD)
        self.gru = nn.GRU(H, H, num_layers=2, bidirectional=True)

    def forward(self, input_seq, input_lengths):
        packed = pack_padded_sequence(self.embedding(input_seq), input_lengths, enforce_sorted=False)
        outputs, hidden = self.gru(packed)
        outputs, lens = pad_packed_sequence(outputs, padding_value=0.0)
        return outputs[:, :, :H] + outputs[:, :, H:], hidden, packed, lens


class AttnDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(V, H, padding_idx=PAD)
        self.gru = nn.GRU(H, H, num_layers=2)
        self.attn = nn.Linear(2 * H, H)
        self.v = nn.Parameter(torch.zeros(H))
        self.concat = nn.Linear(2 * H, H)
        self.out = nn.Linear(H, V)

    def forward(self, step_in, hidden, enc_out, src_mask):
        rnn_out, hidden = self.gru(self.embedding(step_in), hidden)      # (1, B, H)
        energy = torch.tanh(self.attn(torch.cat((rnn_out.expand(enc_out.size(0), -1, -1), enc_out), 2)))
        scores = torch.sum(self.v * energy, dim=2).t()                  # (B, S)
        scores = scores.masked_fill(~src_mask, -1e10)
        attn = F.softmax(scores, dim=1).unsqueeze(1)                    # (B, 1, S)
        context = attn.bmm(enc_out.transpose(0, 1))                     # (B, 1, H)
        concat_out = torch.tanh(self.concat(torch.cat((rnn_out.squeeze(0), context.squeeze(1)), 1)))
        return F.softmax(self.out(concat_out), dim=1), hidden, attn.squeeze(1)


enc, dec = EncoderRNN(), AttnDecoder()
with torch.no_grad():
    for j, m in enumerate((enc, dec)):
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.41 + 0.1 * j) + i).view(p.shape) * 0.4)
        if j == 0:
            m.embedding.weight[PAD].zero_()

src = torch.tensor([[4, 5, 6], [3, 7, 0], [8, 0, 0], [2, 0, 0]])       # (S, B), lengths 4, 2, 1 unsorted
lengths = torch.tensor([4, 2, 1])[[1, 0, 2]]
src = src[:, [1, 0, 2]]
enc_out, enc_hidden, packed, lens = enc(src, lengths)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices, lens)
print(enc_out.shape, enc_hidden.shape, enc_out[:, 0].abs().sum(1))
print(enc_out[0])

target = torch.tensor([[3, 4, 2], [5, 2, 0], [2, 0, 0]])                 # (T, B)
tgt_mask = target != PAD
src_mask = (src != PAD).t()
dec_in = torch.full((1, 3), SOS, dtype=torch.long)
hidden = enc_hidden[:dec.gru.num_layers]
total, n_total = 0.0, 0
for t in range(target.size(0)):
    probs, hidden, attn = dec(dec_in, hidden, enc_out, src_mask)
    nll = -torch.log(torch.gather(probs, 1, target[t].view(-1, 1)).squeeze(1))
    step_loss = nll.masked_select(tgt_mask[t]).mean()
    total = total + step_loss * tgt_mask[t].sum()
    n_total += tgt_mask[t].sum().item()
    print(t, attn.detach().round(decimals=4), f"{step_loss.item():.4f}")
    dec_in = target[t].view(1, -1) if t % 2 == 0 else probs.argmax(1).view(1, -1)   # teacher forcing on even steps
loss = total / n_total
loss.backward()
print(f"{loss.item():.4f}", n_total)
print(enc.embedding.weight.grad[PAD], dec.v.grad)
print(nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 50.0))
print([k for k in enc.state_dict()][:6])

try:
    pack_padded_sequence(src, torch.tensor([1, 4, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    pad_packed_sequence(packed, total_length=2)
except ValueError as e:
    print(type(e).__name__, e)
