# TinyBERT / MiniLM-style layer distillation: match the student's per-head attention
# probabilities (KL) and projected hidden states (MSE) to a teacher's, with padding masks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.norm = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        a, w = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=True, average_attn_weights=False)
        h = self.norm(x + a)
        return h + self.ff(h), w


def init_det(m, scale):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            if "norm" in n:
                continue
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + 0.7 * i).reshape(p.shape) * scale)


teacher, student = Block(8, 2), Block(4, 2)
init_det(teacher, 0.35)
init_det(student, 0.3)
teacher.eval()
proj = nn.Linear(4, 8, bias=False)
with torch.no_grad():
    proj.weight.copy_(torch.linspace(-0.4, 0.4, 32).reshape(8, 4))

B, L = 2, 5
tokens = torch.arange(B * L).reshape(B, L)
emb_t = torch.sin(tokens[..., None] * torch.linspace(0.1, 0.8, 8))
emb_s = torch.cos(tokens[..., None] * torch.linspace(0.2, 0.5, 4))
pad = torch.tensor([[False, False, False, False, False], [False, False, False, True, True]])
with torch.no_grad():
    h_t, w_t = teacher(emb_t, pad)
print("teacher attn", w_t.shape, w_t[1, 0])
print("rows sum to 1:", torch.allclose(w_t.sum(-1), torch.ones(B, 2, L)))

valid = (~pad).float()
opt = torch.optim.Adam(list(student.parameters()) + list(proj.parameters()), lr=0.01)
for step in range(15):
    h_s, w_s = student(emb_s, pad)
    # KL over keys for each (batch, head, query); padded keys have zero prob in both
    log_ws = torch.log(w_s.clamp_min(1e-9))
    attn_kl = F.kl_div(log_ws, w_t, reduction="none").sum(-1)          # B, H, L
    attn_loss = (attn_kl * valid[:, None, :]).sum() / (valid.sum() * 2)
    hid = F.mse_loss(proj(h_s), h_t, reduction="none").mean(-1)         # B, L
    hid_loss = (hid * valid).sum() / valid.sum()
    loss = attn_loss + hid_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"{step:2d} attn {attn_loss.item():.4f} hidden {hid_loss.item():.4f}")

print(w_s.shape, h_s.shape, w_s[1, 1, 0, 3:].tolist())
print(student.attn.in_proj_weight.grad.shape, proj.weight.grad.abs().sum() > 0)
with torch.no_grad():
    _, avg = student.attn(emb_s, emb_s, emb_s, key_padding_mask=pad)
    print("averaged", avg.shape, torch.allclose(avg, w_s.mean(1), atol=1e-6))
