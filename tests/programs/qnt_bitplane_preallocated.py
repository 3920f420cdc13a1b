# Bit-plane encoding of uint8 activations into preallocated buffers (the allocation-free style of
# inference kernels): bitwise ops with out=, in-place shifts and masks, cumsum_ in place for
# run-length offsets, and packing 8 boolean planes back into bytes.
import torch

x = (torch.sin(torch.arange(24, dtype=torch.float32) * 0.61) * 127.5 + 127.5).round().to(torch.uint8)
print("activations", x)

planes = torch.empty(8, x.numel(), dtype=torch.uint8)
tmp = torch.empty_like(x)
for b in range(8):
    torch.bitwise_right_shift(x, b, out=tmp)
    torch.bitwise_and(tmp, 1, out=planes[b])
print("plane sums (popcount per bit)", planes.sum(dim=1))
print("bit 7 plane", planes[7])

# reconstruct in place
acc = torch.zeros_like(x)
shifted = torch.empty_like(x)
for b in range(8):
    torch.bitwise_left_shift(planes[b], b, out=shifted)
    acc.bitwise_or_(shifted)
print("reconstructed equal:", torch.equal(acc, x))

# pack 8 consecutive bits of the top plane into one byte (like numpy.packbits, little bit order)
top = planes[7].view(-1, 8)
weights = torch.tensor([1, 2, 4, 8, 16, 32, 64, 128], dtype=torch.uint8)
packed = (top * weights).sum(dim=1, dtype=torch.uint8)
print("packed top plane", packed, [format(v, "08b") for v in packed.tolist()])
unpacked = torch.empty(packed.numel(), 8, dtype=torch.uint8)
torch.bitwise_and(packed[:, None] >> torch.arange(8, dtype=torch.uint8), 1, out=unpacked)
print("unpack equal:", torch.equal(unpacked.view(-1), planes[7]))

# run-length encode the top plane: positions where the bit changes, lengths via in-place cumsum_
bits = planes[7].to(torch.int64)
change = torch.ones_like(bits, dtype=torch.bool)
torch.ne(bits[1:], bits[:-1], out=change[1:])
starts = change.nonzero().flatten()
lengths = torch.diff(starts, append=torch.tensor([bits.numel()]))
print("run values", bits[starts].tolist(), "lengths", lengths.tolist())
offsets = lengths.clone()
offsets.cumsum_(0)
print("run ends via cumsum_", offsets)
ends8 = lengths.to(torch.uint8)
ends8.cumsum_(dim=0)
print("uint8 cumsum_ (dtype kept)", ends8, ends8.dtype)
flags = torch.zeros(4, dtype=torch.int32)
flags.cumsum_(0, dtype=torch.int32)
print("cumsum_ with dtype", flags)

# invert and xor into preallocated buffers
inv = torch.empty_like(x)
torch.bitwise_not(x, out=inv)
print("x + ~x == 255:", bool(((x.int() + inv.int()) == 255).all()))
parity = torch.zeros_like(x)
for b in range(8):
    torch.bitwise_xor(parity, planes[b], out=parity)
print("parity bits", parity)
try:
    torch.bitwise_and(x, 1, out=torch.empty(x.numel(), dtype=torch.bool))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.bitwise_not(x, out=torch.empty(x.numel(), dtype=torch.int16))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    offsets.cumsum_(0, dtype=torch.float32)
except RuntimeError as e:
    print(type(e).__name__, e)
