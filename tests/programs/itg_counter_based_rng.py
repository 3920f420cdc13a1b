# Hand-rolled, vectorised integer PRNGs (as in GPU "counter-based" / hash RNG code ported to
# PyTorch): a 64-bit LCG that relies on int64 wraparound, xorshift32 emulated in int64 with
# masks, a PCG-style output permutation with logical right shifts, and turning the bits into
# uniform floats and dice rolls.
import torch

MASK32 = 0xFFFFFFFF


def lcg_step(state):
    # Knuth's MMIX constants; multiplication wraps modulo 2**64 in int64
    return state * 6364136223846793005 + 1442695040888963407


def logical_rshift64(x, n):
    """Unsigned right shift for int64 (>> is arithmetic on signed tensors)."""
    return (x >> n) & ((1 << (64 - n)) - 1)


def xorshift32(x):
    """xorshift32 on values held in int64, masked back to 32 bits."""
    x = x ^ ((x << 13) & MASK32)
    x = x ^ (x >> 17)
    x = x ^ ((x << 5) & MASK32)
    return x & MASK32


def pcg_output(state):
    xorshifted = (logical_rshift64((logical_rshift64(state, 18) ^ state), 27)) & MASK32
    rot = logical_rshift64(state, 59)
    return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & MASK32


state = torch.arange(1, 9, dtype=torch.int64) * 0x9E3779B9
print("seeds", state)
for step in range(3):
    state = lcg_step(state)
    print(f"lcg step {step}", state)
print("signs", torch.sign(state).tolist())
print("arith >> 60", state >> 60)
print("logical >> 60", logical_rshift64(state, 60))

out = pcg_output(state)
print("pcg out", out, out.dtype)
print("all 32-bit:", bool(((out >= 0) & (out <= MASK32)).all()))

x = torch.tensor([1, 2, 3, 0xDEADBEEF, MASK32], dtype=torch.int64)
seq = []
for _ in range(4):
    x = xorshift32(x)
    seq.append(x.clone())
print("xorshift32", torch.stack(seq))

# bits -> floats in [0, 1): top 24 bits times 2**-24
bits = torch.stack(seq)
u = (bits >> 8).to(torch.float32) * (1.0 / (1 << 24))
print("uniform", u.round(decimals=6))
print("range ok", bool((u >= 0).all() and (u < 1).all()), u.dtype)
u64 = logical_rshift64(lcg_step(state), 11).double() * 2.0 ** -53
print("double uniforms", u64)

# dice rolls: modulo bias vs Lemire's multiply-shift
d_mod = bits % 6 + 1
d_mul = ((bits * 6) >> 32) + 1
print("dice mod", d_mod)
print("dice mul", d_mul)
print("counts mod", torch.bincount(d_mod.flatten(), minlength=7)[1:])
print("counts mul", torch.bincount(d_mul.flatten(), minlength=7)[1:])

# int32 implementation overflows differently: show the wrap
x32 = torch.tensor([1, 2, 3, 123456789], dtype=torch.int32)
y32 = x32 ^ (x32 << 13)
print("int32 xorshift step", y32, y32.dtype)
print("as unsigned", y32.to(torch.int64) & MASK32)
print("uint8 lfsr", [(torch.tensor([0xB8], dtype=torch.uint8) >> k).item() for k in range(4)])
lfsr = torch.tensor([0xACE1], dtype=torch.int32)
taps = []
for _ in range(8):
    bit = ((lfsr >> 0) ^ (lfsr >> 2) ^ (lfsr >> 3) ^ (lfsr >> 5)) & 1
    lfsr = (lfsr >> 1) | (bit << 15)
    taps.append(lfsr.item())
print("lfsr16", taps)
