# Packing two signed int4 weights into one uint8 byte (GPTQ/AWQ-style storage): bias to unsigned,
# shift and OR into nibbles, unpack with >> and & 0xF, sign-extend back, plus an int32 8-nibble pack.
import torch


def quantize_int4(w, group_size=4):
    w = w.reshape(-1, group_size)
    scale = w.abs().amax(dim=1, keepdim=True) / 7
    q = torch.clamp(torch.round(w / scale), -8, 7).to(torch.int8)
    return q, scale


def pack_int4(q):
    u = (q + 8).to(torch.uint8)           # [-8, 7] -> [0, 15]
    u = u.view(-1, 2)
    return u[:, 0] | (u[:, 1] << 4)


def unpack_int4(packed):
    low = packed & 0x0F
    high = (packed >> 4) & 0x0F
    u = torch.stack([low, high], dim=1).view(-1)
    return u.to(torch.int8) - 8


def pack_int32(q):
    # 8 nibbles per int32, low nibble first
    u = (q.to(torch.int32) & 0xF).view(-1, 8)
    shifts = torch.arange(0, 32, 4, dtype=torch.int32)
    return (u << shifts).sum(dim=1, dtype=torch.int32)


def unpack_int32(words):
    shifts = torch.arange(0, 32, 4, dtype=torch.int32)
    nib = torch.bitwise_right_shift(words[:, None], shifts) & 0xF
    # sign-extend 4-bit two's complement
    nib = torch.where(nib >= 8, nib - 16, nib)
    return nib.view(-1).to(torch.int8)


w = torch.sin(torch.arange(16, dtype=torch.float32) * 0.9) * torch.linspace(0.5, 2.0, 16)
q, scale = quantize_int4(w)
print("q", q.view(-1))
print("scale", scale.view(-1))

packed = pack_int4(q.view(-1))
print("packed", packed, packed.dtype)
print("hex", [hex(v) for v in packed.tolist()])
unpacked = unpack_int4(packed)
print("unpacked equal:", torch.equal(unpacked, q.view(-1)))

words = pack_int32(q.view(-1))
print("int32 words", words, words.dtype)
back = unpack_int32(words)
print("int32 unpack equal:", torch.equal(back, q.view(-1)))

deq = back.view(-1, 4).float() * scale
print("dequant", deq.view(-1).round(decimals=4))
print("max err", f"{(deq.view(-1) - w).abs().max().item():.4f}")

# bitwise_left_shift / right shift on signed values: arithmetic shift
x = torch.tensor([-16, -1, 1, 7, 100], dtype=torch.int8)
print("left shift 1:", torch.bitwise_left_shift(x, 1))
print("right shift 2:", x >> 2)
print("left shift overflows:", x << 3)
print("uint8 shift:", torch.tensor([1, 128, 255], dtype=torch.uint8) << 1)
print("xor checksum:", torch.bitwise_xor(packed[::2], packed[1::2]))
print("bitwise_not:", torch.bitwise_not(packed[:3]), ~torch.tensor([0, -1, 5]))
print("or with scalar:", torch.bitwise_or(packed, 1)[:4], torch.bitwise_and(packed, 0xF0)[:4])
