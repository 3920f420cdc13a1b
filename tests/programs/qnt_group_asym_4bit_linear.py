# Group-wise asymmetric 4-bit weight quantization as in GPTQ/AWQ checkpoints: per-group min/max via
# torch.aminmax, scales and zero points, codes and zeros packed 8-per-int32 (AWQ-style),
# dequantization inside a Linear forward, and torch.fake_quantize_per_channel_affine for comparison.
import torch
import torch.nn as nn
import torch.nn.functional as F

BITS, GROUP = 4, 4
QMAX = 2 ** BITS - 1


def quantize_groups(w):
    out_f, in_f = w.shape
    g = w.reshape(out_f, in_f // GROUP, GROUP)
    wmin, wmax = torch.aminmax(g, dim=-1)
    wmin, wmax = wmin.clamp(max=0), wmax.clamp(min=0)
    scale = (wmax - wmin).clamp(min=1e-8) / QMAX
    zero = torch.round(-wmin / scale).clamp(0, QMAX)
    q = torch.clamp(torch.round(g / scale[..., None]) + zero[..., None], 0, QMAX).to(torch.int32)
    return q.reshape(out_f, in_f), scale, zero.to(torch.int32)


def pack_rows(q):
    """[N, K] int32 codes in 0..15 -> [N, K // 8] int32 words (low nibble first)."""
    n, k = q.shape
    q = q.reshape(n, k // 8, 8)
    shifts = torch.arange(0, 32, 4, dtype=torch.int32)
    return torch.bitwise_left_shift(q, shifts).sum(dim=-1, dtype=torch.int32)


def unpack_rows(words):
    shifts = torch.arange(0, 32, 4, dtype=torch.int32)
    return ((words[..., None] >> shifts) & 0xF).reshape(words.shape[0], -1)


class QuantLinear(nn.Module):
    def __init__(self, linear):
        super().__init__()
        q, scale, zero = quantize_groups(linear.weight.detach())
        self.register_buffer("qweight", pack_rows(q))
        self.register_buffer("qzeros", pack_rows(zero.reshape(zero.shape[0], -1)))
        self.register_buffer("scales", scale)
        self.bias = linear.bias

    def dequant(self):
        q = unpack_rows(self.qweight).float()
        zero = unpack_rows(self.qzeros).float()
        n = q.shape[0]
        q = q.reshape(n, -1, GROUP)
        return ((q - zero[..., None]) * self.scales[..., None]).reshape(n, -1)

    def forward(self, x):
        return F.linear(x, self.dequant(), self.bias)


lin = nn.Linear(32, 3)
with torch.no_grad():
    lin.weight.copy_(torch.sin(torch.arange(96, dtype=torch.float32) * 0.83).view(3, 32) * 0.6)
    lin.bias.copy_(torch.tensor([0.05, -0.02, 0.01]))

ql = QuantLinear(lin)
print({k: (tuple(v.shape), v.dtype) for k, v in ql.state_dict().items()})
print("qweight", ql.qweight)
print("qzeros", ql.qzeros)
print("scales", ql.scales.round(decimals=4))
codes, _, zeros = quantize_groups(lin.weight.detach())
print("codes row 0", codes[0].tolist(), "zeros", zeros.tolist())
print("unpack roundtrip:", torch.equal(unpack_rows(ql.qweight), codes))
print("zero roundtrip:", torch.equal(unpack_rows(ql.qzeros), zeros.reshape(3, -1)))

x = torch.linspace(-1, 1, 64).view(2, 32)
with torch.no_grad():
    y_q, y_f = ql(x), lin(x)
print("quant out", y_q.round(decimals=3))
print("float out", y_f.round(decimals=3))
print("max abs err < 0.1:", bool((y_q - y_f).abs().max() < 0.1))

# per-output-channel fake quant with PyTorch's built-in op (int32 zero points), with gradient
w = lin.weight.detach().clone().requires_grad_()
wmin, wmax = torch.aminmax(w.detach(), dim=1)
scale_c = (wmax - wmin) / QMAX
zp_c = torch.round(-wmin / scale_c).to(torch.int32)
wfq = torch.fake_quantize_per_channel_affine(w, scale_c, zp_c, 0, 0, QMAX)
print("fake-quant grad_fn", wfq.grad_fn.name())
(wfq * torch.linspace(0, 1, 32)).sum().backward()
print("grad equals mask*weights:", torch.allclose(w.grad, torch.linspace(0, 1, 32).expand(3, 32)))
print("fq levels per row", [torch.unique(r).numel() for r in wfq.detach()])
