# Hashing token ids into buckets with integer arithmetic (multiplicative / xor-shift hashes that rely
# on int64 wrap-around), a Bloom filter stored as packed int64 bit words, and SWAR popcount.
import torch

MASK32 = 0xFFFFFFFF


def xorshift_hash(x, seed):
    h = (x * 0x9E3779B1 + seed) & MASK32
    h = h ^ (h >> 16)
    h = (h * 0x85EBCA6B) & MASK32
    h = h ^ (h >> 13)
    return h


def popcount32(v):
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return ((v * 0x01010101) & MASK32) >> 24


class Bloom:
    def __init__(self, n_bits=256, n_hashes=3):
        self.n_bits, self.n_hashes = n_bits, n_hashes
        self.words = torch.zeros(n_bits // 32, dtype=torch.int64)

    def positions(self, keys):
        return torch.stack([xorshift_hash(keys, s) % self.n_bits for s in range(self.n_hashes)], dim=1)

    def add(self, keys):
        pos = self.positions(keys).flatten()
        word, bit = pos // 32, pos % 32
        masks = torch.ones_like(bit) << bit
        for w, m in zip(word.tolist(), masks.tolist()):
            self.words[w] |= m

    def contains(self, keys):
        pos = self.positions(keys)
        bits = (self.words[pos // 32] >> (pos % 32)) & 1
        return bits.all(dim=1)


keys = torch.arange(0, 40, 3)
print("keys", keys)
h = xorshift_hash(keys, 0)
print("hash", h)
print("buckets % 7", h % 7, "bincount", torch.bincount(h % 7, minlength=7))

bloom = Bloom()
bloom.add(keys)
print("words", bloom.words)
print("bits set", popcount32(bloom.words).sum().item(), "of", bloom.n_bits)
probe = torch.arange(0, 20)
hit = bloom.contains(probe)
print("contains", hit.int())
print("false positives", (hit & (probe % 3 != 0)).sum().item())

v = torch.tensor([0, 1, 3, 255, 0x7FFFFFFF, 0xFFFFFFFF, 0x12345678])
print("popcount", popcount32(v))
print("reference", torch.tensor([bin(i).count("1") for i in v.tolist()]))

# int64 wraparound in a multiplicative hash (Python ints would grow, torch wraps)
big = torch.tensor([2**40 + 7, -(2**41) - 3])
prod = big * 6700417
print("int64 product", prod, "wrapped mult", big * (2**30) * (2**30))
print("sign bit via >>", (big >> 63), "logical via &", (big >> 1) & 0x7FFFFFFFFFFFFFFF)
print("int32 arithmetic", torch.tensor([123456789], dtype=torch.int32) * 1000)
print("xor fold", torch.bitwise_xor(h[:-1], h[1:]) & 0xFF)
print("lowest set bit", v & -v)
print("is power of two", ((v & (v - 1)) == 0) & (v != 0))
