# The Annotated Transformer's "copy task" rebuilt on nn.Transformer (seq-first, batch_first=False):
# Adam(betas=(0.9, 0.98), eps=1e-9) + LambdaLR "Noam" rate(step, d_model, factor, warmup),
# CrossEntropyLoss(label_smoothing, ignore_index=pad), clip_grad_norm_, then greedy decoding.
import math
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR

PAD, BOS, V, D = 0, 1, 8, 16


def rate(step, model_size, factor, warmup):
    if step == 0:
        step = 1
    return factor * (model_size ** (-0.5) * min(step ** (-0.5), step * warmup ** (-1.5)))


class CopyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(V, D, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(V, D, padding_idx=PAD)
        self.transformer = nn.Transformer(D, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=32, dropout=0.0)
        self.generator = nn.Linear(D, V)

    def forward(self, src, tgt, tgt_mask):
        s = self.src_emb(src) * math.sqrt(D)
        t = self.tgt_emb(tgt) * math.sqrt(D)
        out = self.transformer(s, t, tgt_mask=tgt_mask, src_key_padding_mask=(src == PAD).T,
                               tgt_key_padding_mask=(tgt == PAD).T)
        return self.generator(out)


model = CopyModel()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.73 + i).view(p.shape) * 0.25)
print(sum(p.numel() for p in model.parameters()), len(list(model.parameters())))

opt = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
sched = LambdaLR(opt, lr_lambda=lambda step: rate(step, D, factor=1.0, warmup=10))
crit = nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=PAD)

# (S, N) sequence-first batches: the source copied to the target, some padded
data = torch.tensor([[1, 3, 5, 2, 6, 4], [1, 4, 4, 7, 0, 0], [1, 2, 6, 3, 5, 0], [1, 7, 3, 2, 0, 0]]).T
tgt_in, tgt_out = data[:-1], data[1:]
mask = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(0))
print(mask)
for step in range(30):
    logits = model(data, tgt_in, mask)
    loss = crit(logits.reshape(-1, V), tgt_out.reshape(-1))
    opt.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()
    sched.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.2f} norm {norm.item():.2f} lr {sched.get_last_lr()[0]:.5f}")
print(sched.state_dict()["last_epoch"], sched.state_dict()["_step_count"], opt.param_groups[0]["initial_lr"])

model.eval()
with torch.no_grad():
    src = data[:, :2]
    memory = model.transformer.encoder(model.src_emb(src) * math.sqrt(D),
                                       src_key_padding_mask=(src == PAD).T)
    ys = torch.full((1, 2), BOS, dtype=torch.long)
    for i in range(5):
        m = nn.Transformer.generate_square_subsequent_mask(ys.size(0))
        out = model.transformer.decoder(model.tgt_emb(ys) * math.sqrt(D), memory, tgt_mask=m,
                                        memory_key_padding_mask=(src == PAD).T)
        prob = model.generator(out[-1]).softmax(-1)
        _, next_word = torch.max(prob, dim=1)
        ys = torch.cat([ys, next_word.unsqueeze(0)], dim=0)
print(ys.T)
print(memory.shape, out.shape, prob.sum(-1).round(decimals=4))
