# A tiny nn.Transformer seq2seq ("copy task") the way tutorials wire it: shared Embedding scaled by
# sqrt(d_model) plus a learned positional embedding, generate_square_subsequent_mask for the
# target, src/tgt/memory key padding masks, a few SGD steps with teacher forcing (tgt_in =
# tgt[:, :-1], tgt_out = tgt[:, 1:]), then greedy decoding with encode()/decode() in eval mode.
import math
import warnings

import torch
import torch.nn as nn

PAD, BOS, EOS, VOCAB, D = 0, 1, 2, 7, 8


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D, padding_idx=PAD)
        self.pos = nn.Embedding(6, D)
        self.transformer = nn.Transformer(d_model=D, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=16, dropout=0.0, batch_first=True)
        self.out = nn.Linear(D, VOCAB)

    def emb(self, ids):
        return self.embed(ids) * math.sqrt(D) + self.pos(torch.arange(ids.size(1)))

    def encode(self, src, src_pad):
        return self.transformer.encoder(self.emb(src), src_key_padding_mask=src_pad)

    def decode(self, tgt, memory, src_pad):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        h = self.transformer.decoder(self.emb(tgt), memory, tgt_mask=mask, memory_key_padding_mask=src_pad)
        return self.out(h)

    def forward(self, src, tgt):
        src_pad, tgt_pad = src == PAD, tgt == PAD
        mask = self.transformer.generate_square_subsequent_mask(tgt.size(1))
        h = self.transformer(self.emb(src), self.emb(tgt), tgt_mask=mask, src_key_padding_mask=src_pad,
                             tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.out(h)


model = Seq2Seq()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape).roll(i) * (1 + 0.02 * i))
    model.embed.weight[PAD].zero_()
print(sum(p.numel() for p in model.parameters()), len(list(model.parameters())))
print(model.transformer.generate_square_subsequent_mask(3))

src = torch.tensor([[3, 4, 5, 6], [5, 3, PAD, PAD]])
tgt = torch.tensor([[BOS, 3, 4, 5, 6, EOS], [BOS, 5, 3, EOS, PAD, PAD]])
tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(8):
    opt.zero_grad()
    logits = model(src, tgt_in)
    loss = loss_fn(logits.reshape(-1, VOCAB), tgt_out.reshape(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 2 == 0:
        print(step, round(loss.item(), 4), logits.shape)
print(model.embed.weight.grad[PAD], model.pos.weight.grad.shape)
print(model.transformer.decoder.layers[0].multihead_attn.in_proj_bias.grad[16:])

model.eval()
with torch.no_grad():
    src_pad = src == PAD
    memory = model.encode(src, src_pad)
    print(memory.shape, memory[1, 2:].abs().sum() > 0)
    ys = torch.full((2, 1), BOS)
    for _ in range(5):
        logits = model.decode(ys, memory, src_pad)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
    print(ys)
    print(logits[:, -1].softmax(-1))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), num_layers=2, enable_nested_tensor=True)
    print([str(c.message) for c in caught])
for name, fn in [("d_model", lambda: model.transformer(torch.ones(2, 3, D), torch.ones(2, 2, 5))),
                 ("batch", lambda: model.transformer(torch.ones(2, 3, D), torch.ones(3, 2, D)))]:
    try:
        fn()
    except Exception as e:
        print(name, type(e).__name__, e)
