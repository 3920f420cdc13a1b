# Multi-series forecasting with ragged histories: each series carries its own learned initial
# state (an nn.Embedding of series id -> h0/c0), histories are padded with pad_sequence, packed
# with enforce_sorted=False, and fed to a bidirectional 2-layer LSTM with proj_size and to a GRU
# with h0 given in the ORIGINAL batch order. Checks that h_n matches running each series alone.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.set_printoptions(precision=4, sci_mode=False)


def det_(module, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.91 + i).reshape(p.shape) * scale)


lengths = [5, 9, 3, 7]
series = [torch.sin(torch.arange(n, dtype=torch.float32) * (0.4 + 0.1 * k) + k).unsqueeze(-1) for k, n in enumerate(lengths)]
padded = pad_sequence(series, batch_first=True, padding_value=-9.0)
print("padded", tuple(padded.shape), padded[2, :, 0])
ids = torch.tensor([0, 1, 2, 3])

H, P, L, D = 6, 3, 2, 2
lstm = nn.LSTM(1, H, num_layers=L, bidirectional=True, batch_first=True, proj_size=P)
det_(lstm)
h_emb, c_emb = nn.Embedding(4, L * D * P), nn.Embedding(4, L * D * H)
det_(h_emb, 0.5)
det_(c_emb, 0.5)
h0 = h_emb(ids).view(-1, L * D, P).transpose(0, 1).contiguous()
c0 = c_emb(ids).view(-1, L * D, H).transpose(0, 1).contiguous()
print("h0", tuple(h0.shape), "c0", tuple(c0.shape))

packed = pack_padded_sequence(padded, torch.tensor(lengths), batch_first=True, enforce_sorted=False)
print("batch_sizes", packed.batch_sizes.tolist(), "sorted", packed.sorted_indices.tolist(),
      "unsorted", packed.unsorted_indices.tolist())
out_p, (hn, cn) = lstm(packed, (h0, c0))
out, out_len = pad_packed_sequence(out_p, batch_first=True, padding_value=0.0)
print("out", tuple(out.shape), out_len.tolist(), "hn", tuple(hn.shape), "cn", tuple(cn.shape))

for b, n in enumerate(lengths):
    o1, (h1, c1) = lstm(series[b].unsqueeze(0), (h0[:, b:b + 1].contiguous(), c0[:, b:b + 1].contiguous()))
    same_h = torch.allclose(h1[:, 0], hn[:, b], atol=1e-6)
    same_c = torch.allclose(c1[:, 0], cn[:, b], atol=1e-6)
    same_o = torch.allclose(o1[0], out[b, :n], atol=1e-6)
    print(f"series {b} len {n}: h {same_h} c {same_c} out {same_o} pad zeros {bool((out[b, n:] == 0).all())}")
print("last-layer forward h_n", hn[-2])
print("last-layer backward h_n", hn[-1])

gru = nn.GRU(1, 4, num_layers=2, batch_first=True)
det_(gru)
g0 = torch.linspace(-1, 1, 2 * 4 * 4).view(2, 4, 4)
g_out, g_hn = gru(packed, g0)
print("gru data", tuple(g_out.data.shape), "hn", tuple(g_hn.shape))
print(g_hn[-1])
first = gru(series[2].unsqueeze(0), g0[:, 2:3].contiguous())[1]
print("series 2 alone matches", torch.allclose(first[:, 0], g_hn[:, 2], atol=1e-6))

head = nn.Linear(2 * P, 1)
det_(head)
forecast = head(torch.cat([hn[-2], hn[-1]], dim=-1)).squeeze(-1)
loss = (forecast - torch.tensor([0.1, -0.2, 0.3, 0.0])).pow(2).mean()
loss.backward()
print(f"loss {loss.item():.5f}")
print("emb grad rows", h_emb.weight.grad.abs().sum(1))
print("weight_hr_l1_reverse grad", lstm.weight_hr_l1_reverse.grad)
