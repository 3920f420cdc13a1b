# Hashing-trick embeddings (feature hashing / n-gram buckets as in fastText and DLRM):
# 64-bit multiplicative hashing that wraps around, xor-shift mixing, and bucket indices from
# % and & on negative hashes, written with integer tensor ops only.
import torch

PRIME1 = 0x9E3779B97F4A7C15 - (1 << 64)   # golden-ratio constant as a signed int64
PRIME2 = -0x40A7B892E31B1A47
NUM_BUCKETS = 1000


def mix64(h):
    """splitmix64-style finalizer: arithmetic >> on negatives, wrapping * in int64."""
    h = h ^ (h >> 30)
    h = h * PRIME2
    h = h ^ (h >> 27)
    h = h * -7723592293110705685
    return h ^ (h >> 31)


tokens = torch.tensor([[3, 17, 256, 4095], [0, 1, 2, 3], [99999, -5, 7, 7]])
print("tokens", tokens.dtype, tokens.shape)
h = tokens * PRIME1
print("raw products", h)
mixed = mix64(tokens) - h  # keep some negatives around
print("mixed", mixed)
print("negative hashes:", (mixed < 0).sum().item(), "of", mixed.numel())

# three ways people turn a signed hash into a bucket
b_rem = mixed % NUM_BUCKETS                 # Python-style: always in [0, N)
b_fmod = torch.fmod(mixed, NUM_BUCKETS)     # C-style: sign of the dividend
b_mask = mixed & (1024 - 1)                 # power-of-two mask
print("remainder", b_rem)
print("fmod", b_fmod)
print("mask", b_mask)
print("in range:", bool(((b_rem >= 0) & (b_rem < NUM_BUCKETS)).all()),
      bool(((b_fmod >= 0) & (b_fmod < NUM_BUCKETS)).all()))
print(torch.remainder(mixed, -NUM_BUCKETS)[0])
print(torch.div(mixed[0], NUM_BUCKETS, rounding_mode="floor"),
      torch.div(mixed[0], NUM_BUCKETS, rounding_mode="trunc"))

# bigram hashing: combine neighbours with a shift-xor
left, right = tokens[:, :-1], tokens[:, 1:]
bigram = (left * 31) ^ (right << 7) ^ (right >> 2)
print("bigram", bigram, bigram.dtype)
bucket = torch.remainder(mix64(bigram), NUM_BUCKETS)
print("bigram buckets", bucket)

# EmbeddingBag over hashed ids with deterministic weights
emb = torch.nn.EmbeddingBag(NUM_BUCKETS, 4, mode="sum")
with torch.no_grad():
    emb.weight.copy_(torch.sin(torch.arange(NUM_BUCKETS * 4, dtype=torch.float32).view(-1, 4) * 0.01))
out = emb(bucket)
print("bag out", out.shape, out.round(decimals=3))

# int32 hashes wrap at 32 bits
h32 = tokens.to(torch.int32) * 0x01000193
print("fnv int32", h32, h32.dtype)
h32 = (h32 ^ 0x7FFFFFFF) * 16777619
print("fnv int32 round 2", h32)
print("uint8 hash", (tokens.to(torch.uint8) * 37 + 11) ^ 0xA5)

# popcount of the hashes (Hamming weight via shifts)
bits = (mixed[0].unsqueeze(-1) >> torch.arange(64)) & 1
print("popcount", bits.sum(-1), bits.dtype)
