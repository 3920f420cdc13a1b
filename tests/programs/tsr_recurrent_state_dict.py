# Inspecting recurrent layers as users do in forum posts: state_dict keys for multi-layer,
# bidirectional and proj_size LSTMs / GRUs, parameter shapes, output and h_n / c_n shapes for
# batch_first both ways, initial states, flatten_parameters(), and loading weights across models.
import torch
import torch.nn as nn

lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True, batch_first=True)
for k, v in lstm.state_dict().items():
    print(k, tuple(v.shape))
print(lstm)
lstm.flatten_parameters()
print([n for n, _ in lstm.named_parameters()][:4])
print(len(lstm.all_weights), [len(w) for w in lstm.all_weights])

proj = nn.LSTM(4, 6, num_layers=2, proj_size=3)
print(proj)
for k, v in proj.state_dict().items():
    print(k, tuple(v.shape))

gru = nn.GRU(2, 4, num_layers=3, bias=False, bidirectional=True)
print(list(gru.state_dict().keys()))

def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (-1) ** i)

for m in (lstm, proj, gru):
    fill(m)

x = torch.linspace(-1, 1, 2 * 7 * 3).reshape(2, 7, 3)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
print(torch.allclose(out[:, -1, :5], h[-2]), torch.allclose(out[:, 0, 5:], h[-1]))
h0 = torch.zeros(4, 2, 5)
c0 = torch.ones(4, 2, 5) * 0.1
out2, (h2, c2) = lstm(x, (h0, c0))
print(out2[0, -1])
print(c2[:, 0, 0])

xp = torch.linspace(-1, 1, 7 * 2 * 4).reshape(7, 2, 4)
outp, (hp, cp) = proj(xp)
print(outp.shape, hp.shape, cp.shape)
print(hp[-1])

xg = torch.cos(torch.arange(5 * 2 * 2, dtype=torch.float32)).reshape(5, 2, 2)
og, hg = gru(xg)
print(og.shape, hg.shape)
print(hg[:, 0].sum(dim=-1))

# copy weights to a batch_first=False twin and compare
twin = nn.LSTM(3, 5, num_layers=2, bidirectional=True)
print(twin.load_state_dict(lstm.state_dict()))
o_twin, _ = twin(x.transpose(0, 1))
print(torch.allclose(o_twin.transpose(0, 1), out, atol=1e-6))
sd = lstm.state_dict()
sd.pop("bias_hh_l1_reverse")
res = nn.LSTM(3, 5, num_layers=2, bidirectional=True).load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(lstm.weight_ih_l0_reverse.grad, lstm.hidden_size, lstm.num_layers, lstm.proj_size)
