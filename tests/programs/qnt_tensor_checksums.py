# Checksumming tensors to detect changed weights and duplicate samples: torch.hash_tensor (xor of
# 64-bit patterns) over whole tensors and per row, hand-rolled int64 polynomial hashes with
# wrap-around, and comparing checksums of a quantized state_dict before and after an update.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        # exact dyadic values: the hash sees every bit, so no transcendental rounding here
        p.copy_(((torch.arange(p.numel()) * (i + 2)) % 7 - 3).float().view_as(p) / 4)


def checksums(module):
    return {k: torch.hash_tensor(v).item() for k, v in module.state_dict().items()}


before = checksums(model)
for k, v in before.items():
    print(f"{k:10s} {v:20d} {hex(v)}")
with torch.no_grad():
    model[2].bias[1] += 1e-3
after = checksums(model)
print("changed:", [k for k in before if before[k] != after[k]])
print("hash dtype:", torch.hash_tensor(model[0].weight).dtype, "requires_grad:",
      torch.hash_tensor(model[0].weight).requires_grad)

# duplicate rows in a small integer dataset, via per-row hashes
data = torch.tensor([[1, 2, 3], [4, 5, 6], [1, 2, 3], [7, 8, 9], [4, 5, 6], [-1, 0, 1]])
row_hash = torch.hash_tensor(data, dim=1)
print("row hashes", row_hash)
seen, dups = {}, []
for i, h in enumerate(row_hash.tolist()):
    if h in seen:
        dups.append((seen[h], i))
    else:
        seen[h] = i
print("duplicate pairs", dups)
print("keepdim", torch.hash_tensor(data, 1, keepdim=True).shape, "per column", torch.hash_tensor(data, 0))
print("float vs int hash differ:", torch.hash_tensor(data.float()).item() != torch.hash_tensor(data).item())
print("int8 same as int64:", torch.hash_tensor(data.to(torch.int8)).item() == torch.hash_tensor(data).item())
print("float16 same as float64:", torch.hash_tensor(data.half()).item() == torch.hash_tensor(data.double()).item())

# a polynomial rolling hash in int64 (wraps on overflow), then bucketed with remainder
BASE, MOD = 1_000_003, 2 ** 31 - 1
h = torch.zeros(data.shape[0], dtype=torch.int64)
for col in range(data.shape[1]):
    h = (h * BASE + data[:, col]) % MOD
print("rolling hash", h)
print("buckets", torch.remainder(h, 4), torch.bincount(torch.remainder(h, 4), minlength=4))
wrapped = torch.tensor([2 ** 62]) * BASE
print("int64 wrap", wrapped, wrapped.dtype)

# quantize weights to int8 and checksum the integer codes
w = model[0].weight.detach()
scale = w.abs().max() / 127
q = torch.round(w / scale).to(torch.int8)
print("int8 codes hash", torch.hash_tensor(q).item(), "per row", torch.hash_tensor(q, 1).tolist())
try:
    torch.hash_tensor(torch.empty(0, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
