# Full nn.Transformer (batch_first=False) on a toy copy/reverse task: embeddings + sinusoidal
# positions, generate_square_subsequent_mask, src/tgt/memory key padding masks, a few
# training steps with Adam, then greedy decoding in eval(); also the param count and state_dict.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, PAD, BOS = 7, 8, 0, 1


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.tf = nn.Transformer(d_model=D, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=16, dropout=0.0)
        self.out = nn.Linear(D, V)
        pos = torch.arange(16).unsqueeze(1)
        div = torch.exp(torch.arange(0, D, 2) * (-math.log(10000.0) / D))
        pe = torch.zeros(16, 1, D)
        pe[:, 0, 0::2] = torch.sin(pos * div)
        pe[:, 0, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)

    def embed(self, x):
        return self.emb(x) * math.sqrt(D) + self.pe[: x.size(0)]

    def forward(self, src, tgt):
        tgt_mask = self.tf.generate_square_subsequent_mask(tgt.size(0))
        h = self.tf(self.embed(src), self.embed(tgt), tgt_mask=tgt_mask,
                    src_key_padding_mask=(src == PAD).T, tgt_key_padding_mask=(tgt == PAD).T,
                    memory_key_padding_mask=(src == PAD).T)
        return self.out(h)


model = Seq2Seq()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        n = torch.arange(p.numel(), dtype=torch.float32)
        if "norm" in name and name.endswith("weight"):
            p.fill_(1.0)
        elif name.endswith("bias"):
            p.zero_()
        else:
            p.copy_((0.3 * torch.sin(1.3 * n + i)).reshape(p.shape))
print(sum(p.numel() for p in model.parameters()))
keys = list(model.state_dict().keys())
print(len(keys), keys[:4], keys[-6:])

# (S, N) sequences: column = one example; PAD at the end of the second
src = torch.tensor([[2, 5], [3, 4], [4, 6], [5, 0]])
tgt_in = torch.tensor([[BOS, BOS], [5, 6], [4, 4], [3, 5]])
tgt_out = torch.tensor([[5, 6], [4, 4], [3, 5], [2, 0]])
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(12):
    opt.zero_grad()
    logits = model(src, tgt_in)
    loss = F.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1), ignore_index=PAD)
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 11:
        print(step, f"{loss.item():.4f}")

model.eval()
with torch.no_grad():
    ys = torch.full((1, 2), BOS)
    for _ in range(4):
        logits = model(src, ys)
        nxt = logits[-1].argmax(-1, keepdim=True).T
        ys = torch.cat([ys, nxt], 0)
print(ys.T)
print(logits.shape, f"{logits.softmax(-1).max().item():.3f}")
