# Temporal Fusion Transformer building blocks as in pytorch-forecasting-style reimplementations:
# GatedLinearUnit via F.glu, GatedResidualNetwork with ELU and optional context, a variable
# selection network (softmax weights over per-variable GRNs, stacked along a new dim), an LSTM
# encoder-decoder whose decoder starts from the encoder state, and interpretable multi-head
# attention that shares the value projection across heads under a causal mask.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)


class GLU(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, 2 * d_out)

    def forward(self, x):
        return F.glu(self.fc(x), dim=-1)


class GRN(nn.Module):
    def __init__(self, d_in, d_hidden, d_out, d_context=None):
        super().__init__()
        self.skip = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.ctx = nn.Linear(d_context, d_hidden, bias=False) if d_context else None
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.gate = GLU(d_hidden, d_out)
        self.norm = nn.LayerNorm(d_out)

    def forward(self, x, context=None):
        h = self.fc1(x)
        if context is not None:
            h = h + self.ctx(context).unsqueeze(-2).expand_as(h) if h.dim() == 3 else h + self.ctx(context)
        h = self.fc2(F.elu(h))
        return self.norm(self.skip(x) + self.gate(h))


class VariableSelection(nn.Module):
    def __init__(self, n_vars, d_model, d_context):
        super().__init__()
        self.flat = GRN(n_vars * d_model, d_model, n_vars, d_context)
        self.per_var = nn.ModuleList([GRN(d_model, d_model, d_model) for _ in range(n_vars)])

    def forward(self, embs, context):           # embs: [B, T, V, d]
        B, T, V, d = embs.shape
        weights = torch.softmax(self.flat(embs.flatten(start_dim=2), context), dim=-1).unsqueeze(-1)
        processed = torch.stack([g(embs[..., i, :]) for i, g in enumerate(self.per_var)], dim=-2)
        return (processed * weights).sum(dim=-2), weights.squeeze(-1)


class InterpretableMHA(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_k = d_model // n_heads
        self.q = nn.ModuleList([nn.Linear(d_model, self.d_k) for _ in range(n_heads)])
        self.k = nn.ModuleList([nn.Linear(d_model, self.d_k) for _ in range(n_heads)])
        self.v = nn.Linear(d_model, self.d_k)
        self.out = nn.Linear(self.d_k, d_model)

    def forward(self, x, mask):
        v = self.v(x)
        heads, attns = [], []
        for q, k in zip(self.q, self.k):
            scores = torch.bmm(q(x), k(x).transpose(1, 2)) / math.sqrt(self.d_k)
            scores = scores.masked_fill(mask, -1e9)
            a = F.softmax(scores, dim=-1)
            heads.append(torch.bmm(a, v))
            attns.append(a)
        head = torch.stack(heads, dim=2).mean(dim=2)
        return self.out(head), torch.stack(attns, dim=1)


d, V, T_enc, T_dec, B = 8, 3, 10, 4, 2
vsn = VariableSelection(V, d, d_context=d)
static = GRN(d, d, d)
lstm_enc, lstm_dec = nn.LSTM(d, d, batch_first=True), nn.LSTM(d, d, batch_first=True)
attn = InterpretableMHA(d, n_heads=2)
mods = nn.ModuleList([vsn, static, lstm_enc, lstm_dec, attn])
with torch.no_grad():
    for i, p in enumerate(mods.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 0.3 * i).reshape(p.shape) * 0.35)

t = torch.arange(T_enc + T_dec, dtype=torch.float32)
embs = torch.stack([torch.sin(t[None, :, None] / (3 + v) + torch.arange(d) * 0.1 + b) for b in range(B) for v in range(V)])
embs = embs.view(B, V, T_enc + T_dec, d).permute(0, 2, 1, 3)
static_ctx = static(torch.cos(torch.arange(B * d, dtype=torch.float32)).view(B, d))
print("embs", tuple(embs.shape), "static", tuple(static_ctx.shape))

x, w = vsn(embs, static_ctx)
print("selected", tuple(x.shape), "weights", tuple(w.shape), "sum to 1", torch.allclose(w.sum(-1), torch.ones(B, T_enc + T_dec)))
print("mean variable importance", w.mean(dim=(0, 1)))
enc_out, (h, c) = lstm_enc(x[:, :T_enc])
dec_out, _ = lstm_dec(x[:, T_enc:], (h, c))
seq = torch.cat([enc_out, dec_out], dim=1)
T = T_enc + T_dec
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1).unsqueeze(0)
out, att = attn(seq, causal)
print("attn", tuple(att.shape), "upper zero", bool((att.masked_select(causal.unsqueeze(1).expand_as(att)) == 0).all()))
print("decoder attention (head 0, last step)", att[0, 0, -1])
quant = nn.Linear(d, 3)
with torch.no_grad():
    quant.weight.copy_(torch.linspace(-0.5, 0.5, 3 * d).view(3, d))
    quant.bias.copy_(torch.tensor([-0.3, 0.0, 0.3]))
pred = quant(out[:, T_enc:])
target = torch.sin(t[T_enc:] / 3).expand(B, T_dec)
qs = torch.tensor([0.1, 0.5, 0.9])
err = target.unsqueeze(-1) - pred
loss = torch.max(qs * err, (qs - 1) * err).mean()
loss.backward()
print(f"quantile loss {loss.item():.5f}")
print("pred", pred[0].detach())
print("grad flat.fc1", vsn.flat.fc1.weight.grad.norm().item() > 0, "glu grad", vsn.per_var[0].gate.fc.bias.grad[:4])
