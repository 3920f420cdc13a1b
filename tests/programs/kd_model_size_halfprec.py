# Report compressed model sizes the way compression tutorials do: parameter/buffer bytes
# per dtype, after pruning (dense vs nonzero / COO), and after casting to float16.
import copy
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune


def model_bytes(m):
    p = sum(t.numel() * t.element_size() for t in m.parameters())
    b = sum(t.numel() * t.element_size() for t in m.buffers())
    return p, b


def nonzero_params(m):
    return sum(int(torch.count_nonzero(t)) for n, t in m.state_dict().items() if not n.endswith("_mask"))


net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).reshape(p.shape))
print("fp32 bytes (params, buffers):", model_bytes(net))
print("state_dict entries:", {k: (tuple(v.shape), str(v.dtype)) for k, v in net.state_dict().items()})

pruned = copy.deepcopy(net)
for m in pruned.modules():
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        prune.l1_unstructured(m, "weight", amount=0.8)
        prune.remove(m, "weight")
print("nonzero fp32 params:", nonzero_params(net), "->", nonzero_params(pruned))
sparse_bytes = 0
for name, t in pruned.state_dict().items():
    if t.dim() >= 2:
        s = t.to_sparse()
        sparse_bytes += s.values().numel() * s.values().element_size() + s.indices().numel() * s.indices().element_size()
    else:
        sparse_bytes += t.numel() * t.element_size()
print("COO bytes:", sparse_bytes, "dense bytes:", sum(model_bytes(pruned)))

half = copy.deepcopy(net).half()
print("fp16 bytes:", model_bytes(half), half[0].weight.dtype, half[1].num_batches_tracked.dtype)

x = torch.cos(torch.arange(2 * 3 * 6 * 6, dtype=torch.float32) * 0.1).reshape(2, 3, 6, 6)
net.eval(); half.eval()
with torch.no_grad():
    ref = net(x)
    out16 = half(x.half()).float()
print("fp16 max abs err < 0.05:", (out16 - ref).abs().max().item() < 0.05)
print("argmax agree fp16:", torch.equal(out16.argmax(1), ref.argmax(1)))
print(torch.finfo(torch.float16).eps, torch.finfo(torch.float16).tiny, torch.finfo(torch.float16).max)
w = net[4].weight.detach()
print("fp16 rounding:", (w.half().float() - w).abs().max().item() <= torch.finfo(torch.float16).eps)
try:
    half(x)
except RuntimeError as e:
    print(type(e).__name__, e)
