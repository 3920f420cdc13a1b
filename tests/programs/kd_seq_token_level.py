# Token-level distillation for a sequence model (DistilBERT/DistilGPT2 style): masked
# KL over the vocabulary on (batch, seq, vocab) logits + shifted LM cross-entropy with ignore_index.
import torch
import torch.nn as nn
import torch.nn.functional as F

V, D_T, D_S = 11, 16, 6
PAD = 0


class LM(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.emb = nn.Embedding(V, d, padding_idx=PAD)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, V)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def init_det(m, scale):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + 1.3 * i).reshape(p.shape) * scale)


teacher, student = LM(D_T), LM(D_S)
init_det(teacher, 0.3)
init_det(student, 0.3)
teacher.eval()
ids = torch.tensor([[3, 5, 7, 2, 9, 4], [6, 1, 8, 3, 0, 0], [2, 2, 5, 10, 7, 0]])
attn_mask = (ids != PAD)
labels = ids[:, 1:].masked_fill(~attn_mask[:, 1:], -100)
T = 2.0

opt = torch.optim.AdamW(student.parameters(), lr=0.01, weight_decay=0.01)
for step in range(20):
    with torch.no_grad():
        t_logits = teacher(ids)
    s_logits = student(ids)
    sel = attn_mask.unsqueeze(-1).expand_as(s_logits)
    s_sel = torch.masked_select(s_logits, sel).view(-1, V)
    t_sel = torch.masked_select(t_logits, sel).view(-1, V)
    loss_kd = F.kl_div(F.log_softmax(s_sel / T, -1), F.softmax(t_sel / T, -1), reduction="batchmean") * T ** 2
    loss_lm = F.cross_entropy(s_logits[:, :-1].transpose(1, 2), labels, ignore_index=-100)
    loss = 0.5 * loss_kd + 0.5 * loss_lm
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"{step:2d} kd {loss_kd.item():.4f} lm {loss_lm.item():.4f}")

print(s_sel.shape, labels.tolist())
per_tok = F.cross_entropy(s_logits[:, :-1].reshape(-1, V), labels.reshape(-1), reduction="none")
print(per_tok.view(3, 5).gt(0).tolist())
print(f"{(per_tok.sum() / (labels != -100).sum()).item():.4f}", f"{loss_lm.item():.4f}")
ls = F.cross_entropy(s_logits[:, :-1].reshape(-1, V), labels.reshape(-1), label_smoothing=0.1)
print("smoothed", f"{ls.item():.4f}")
print("emb pad grad zero:", student.emb.weight.grad[PAD].abs().sum().item())
with torch.no_grad():
    t_prob = F.softmax(teacher(ids) / T, -1)
    print("teacher top-1:", t_prob.argmax(-1)[attn_mask].tolist())
    print("student top-1:", student(ids).argmax(-1)[attn_mask].tolist())
