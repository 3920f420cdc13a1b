# Research-notebook check of forward-mode AD through common nn layers: push a dual input through
# Conv2d/BatchNorm2d/MaxPool2d, a GRU, LayerNorm+MultiheadAttention and an Embedding bag, and
# compare unpack_dual(...).tangent with torch.func.jvp and the double-backward autograd jvp.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import jvp

torch.set_default_dtype(torch.float64)


def init_(module, scale=0.4):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(scale * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.37 + i).view_as(p))
    return module


def report(name, fn, primal, tangent, with_func=True):
    with fwAD.dual_level():
        out = fn(fwAD.make_dual(primal, tangent))
        p_out, t_out = fwAD.unpack_dual(out)
    same_func = "skipped"
    if with_func:  # torch.func refuses to update BatchNorm running stats (captured buffers)
        _, t_func = jvp(fn, (primal,), (tangent,))
        same_func = torch.allclose(t_out, t_func)
    _, t_ag = torch.autograd.functional.jvp(fn, primal, tangent)
    print(f"{name:10s} out {tuple(p_out.shape)} tangent {tuple(t_out.shape)}",
          "func.jvp", same_func, "autograd.jvp", torch.allclose(t_out, t_ag))
    print("   tangent sum", f"{t_out.sum().item():.6f}", "abs max", f"{t_out.abs().max().item():.6f}")


img = torch.sin(torch.arange(2 * 3 * 6 * 6, dtype=torch.float64) * 0.11).view(2, 3, 6, 6)
img_t = torch.cos(torch.arange(img.numel(), dtype=torch.float64) * 0.05).view_as(img)
cnn = init_(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(36, 3)))
cnn.eval()
with torch.no_grad():
    cnn[1].running_mean.copy_(torch.linspace(-0.1, 0.1, 4))
    cnn[1].running_var.copy_(torch.linspace(0.5, 1.5, 4))
report("cnn-eval", cnn, img, img_t)
cnn.train()
report("cnn-train", cnn, img, img_t, with_func=False)

seq = torch.sin(torch.arange(2 * 5 * 3, dtype=torch.float64) * 0.3).view(2, 5, 3)
seq_t = torch.ones_like(seq) * 0.1
gru = init_(nn.GRU(3, 4))  # (seq, batch, feature)
report("gru", lambda s: gru(s.transpose(0, 1))[0], seq, seq_t)
lstm = init_(nn.LSTM(3, 4, batch_first=True, bidirectional=True))
report("bilstm", lambda s: lstm(s)[1][0], seq, seq_t)

ln = init_(nn.LayerNorm(4))
mha = init_(nn.MultiheadAttention(4, 2, batch_first=True), 0.3)
tokens = torch.cos(torch.arange(2 * 5 * 4, dtype=torch.float64) * 0.21).view(2, 5, 4)


def block(t):
    h = ln(t)
    attn, _ = mha(h, h, h)
    return t + attn


report("attention", block, tokens, torch.sin(tokens * 2))

emb = init_(nn.Embedding(10, 3))
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
with fwAD.dual_level():
    w = fwAD.make_dual(emb.weight.detach(), torch.arange(30.0).view(10, 3) / 10)
    out = nn.functional.embedding(idx, w).mean(1)
    print("embedding tangent\n", fwAD.unpack_dual(out).tangent)
    soft = torch.softmax(out, dim=-1)
    print("softmax tangent rows sum to 0:", torch.allclose(fwAD.unpack_dual(soft).tangent.sum(-1), torch.zeros(2)))
