# Packing boolean masks into bitsets (as in fast set-similarity / bloom filter / attention
# mask compression code): bools -> uint8 bytes and int64 words with shifts, set/test/clear
# single bits, popcount with the SWAR trick, Jaccard similarity on packed words, unpacking.
import torch

masks = torch.stack([(torch.arange(20) % k == 0) for k in (2, 3, 5, 7)])
print("masks", masks.shape, masks.dtype, masks.sum(1))

# --- pack into bytes, little-endian bit order
pad = (-masks.shape[1]) % 8
padded = torch.cat([masks, torch.zeros(masks.shape[0], pad, dtype=torch.bool)], dim=1)
weights = (1 << torch.arange(8)).to(torch.uint8)
print("weights", weights)
packed = (padded.view(4, -1, 8).to(torch.uint8) * weights).sum(-1, dtype=torch.uint8)
print("packed bytes", packed, packed.dtype)
alt = (padded.view(4, -1, 8).to(torch.int64) << torch.arange(8)).sum(-1)
print("same via shifts", torch.equal(alt.to(torch.uint8), packed), alt.dtype)

# --- unpack
unpacked = (packed.unsqueeze(-1) >> torch.arange(8, dtype=torch.uint8)) & 1
print("unpacked dtype", unpacked.dtype, unpacked.shape)
restored = unpacked.view(4, -1)[:, :masks.shape[1]].bool()
print("round trip", torch.equal(restored, masks))

# --- 64-bit words
words = (masks.to(torch.int64) << torch.arange(20)).sum(-1)
print("words", words, [hex(w) for w in words.tolist()])


def popcount64(v):
    """SWAR popcount; works on int64 thanks to two's complement wraparound."""
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (v * 0x0101010101010101) >> 56 & 0xFF


print("popcount", popcount64(words), "vs sum", masks.sum(1))
neg = torch.tensor([-1, -2, -(1 << 62), 1 << 62, -9223372036854775807 - 1])
print("popcount negatives", popcount64(neg))

# set / clear / toggle / test bit 1 of every word
bit = 1
print("set", words | (1 << bit))
print("clear", words & ~(1 << bit))
print("toggle", words ^ (1 << bit))
print("test bit 6", (words >> 6) & 1, ((words & (1 << 6)) != 0))
print("lowest set bit", words & -words)
print("clear lowest", words & (words - 1))

# Jaccard between all pairs on packed words
inter = popcount64(words.unsqueeze(1) & words.unsqueeze(0))
union = popcount64(words.unsqueeze(1) | words.unsqueeze(0))
print("intersections\n", inter)
print("jaccard\n", (inter / union).round(decimals=3))
ref = (masks.unsqueeze(1) & masks.unsqueeze(0)).sum(-1)
print("matches unpacked:", torch.equal(ref, inter))

# bool algebra directly on masks
both = masks[0] & masks[1]
either = masks[0] | masks[1]
only_one = masks[0] ^ masks[1]
print("bool sums", both.sum().item(), either.sum().item(), only_one.sum().item(), (~masks[0]).sum().item())
print("bool + bool", (masks[0] + masks[1])[:6], "bool * bool", (masks[0] * masks[1])[:6])
print("sum(dtype=bool)?", masks.any(0).sum(), masks.all(0).nonzero().flatten())
print("count via int", masks.int().sum(0), masks.sum(0).dtype)
print("bool mean needs float:", masks.float().mean(1))
try:
    masks.mean()
except RuntimeError as e:
    print(type(e).__name__, e)

# bloom filter style membership with 3 hashes into a 64-bit word
def bloom_bits(keys):
    h1 = keys * 2654435761 & 63
    h2 = (keys * 40503 >> 3) & 63
    h3 = (keys ^ (keys >> 2)) & 63
    return (1 << h1) | (1 << h2) | (1 << h3)


filt = bloom_bits(torch.tensor([3, 17, 42, 99])).sum()   # disjointish bits; use | reduce below
acc = torch.tensor(0)
for b in bloom_bits(torch.tensor([3, 17, 42, 99])):
    acc |= b
print("filter", acc.item(), hex(acc.item()))
q = torch.tensor([3, 4, 17, 18, 42, 100])
qb = bloom_bits(q)
print("maybe member", (qb & acc) == qb)
