# Flat-index arithmetic in grid / ring-buffer code: unravel with // and %, torch.unravel_index,
# periodic (toroidal) neighbour indices with remainder on negatives, fmod pitfalls, ravel with
# strides in int32, and bucketize/searchsorted for irregular bins.
import torch

H, W = 4, 5
flat = torch.tensor([0, 4, 5, 13, 19, 7])
rows, cols = flat // W, flat % W
print("rows", rows, "cols", cols)
print("unravel", torch.unravel_index(flat, (H, W)))
r2, c2 = torch.div(flat, W, rounding_mode="floor"), torch.remainder(flat, W)
print("same", torch.equal(rows, r2), torch.equal(cols, c2))
print("ravel back", rows * W + cols)

# negative flat indices: // and % vs trunc/fmod
neg = torch.tensor([-1, -5, -6, -21])
print("floor", neg // W, neg % W)
print("trunc", torch.div(neg, W, rounding_mode="trunc"), torch.fmod(neg, W))
print("unravel negatives", torch.unravel_index(neg % (H * W), (H, W)))
try:
    torch.unravel_index(torch.tensor([20]), (H, W))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.unravel_index(torch.tensor([1.0]), (H, W))
except TypeError as e:
    print(type(e).__name__, e)

# toroidal neighbours for a game-of-life style update
board = (torch.arange(H * W).view(H, W) * 7 % 3 == 0).to(torch.uint8)
print("board\n", board)
ii = torch.arange(H).view(-1, 1)
jj = torch.arange(W).view(1, -1)
neighbours = torch.zeros(H, W, dtype=torch.uint8)
for di in (-1, 0, 1):
    for dj in (-1, 0, 1):
        if di == 0 and dj == 0:
            continue
        neighbours += board[(ii + di) % H, (jj + dj) % W]
print("neighbours\n", neighbours, neighbours.dtype)
same = sum(torch.roll(board, (di, dj), (0, 1)).int() for di in (-1, 0, 1) for dj in (-1, 0, 1)) - board
print("roll version equal:", torch.equal(same.to(torch.uint8), neighbours), same.dtype)
alive = (neighbours == 3) | ((board == 1) & (neighbours == 2))
print("next\n", alive.to(torch.uint8))
print("wrong wrap with fmod:", torch.fmod(torch.arange(-2, 3), W))

# ring buffer indexing
capacity = 6
head = torch.tensor(4)
writes = torch.arange(5)
slots = (head + writes) % capacity
print("slots", slots, slots.dtype)
buf = torch.full((capacity,), -1, dtype=torch.int16)
buf[slots] = (writes * 100).to(torch.int16)
print("buffer", buf)
oldest = (head + writes.numel()) % capacity
order = (oldest + torch.arange(capacity)) % capacity
print("read order", order, buf[order])

# strided ravel in int32, mixed with int64 scalars
strides = torch.tensor([W, 1], dtype=torch.int32)
coords = torch.stack([rows, cols], 1).to(torch.int32)
lin = (coords * strides).sum(1)
print("int32 ravel", lin, lin.dtype, (coords * strides).dtype)
print("int32 // int64 0-d:", (lin // torch.tensor(W)).dtype, "int32 // int64 1-d:", (lin // torch.tensor([W])).dtype)

# irregular bins
edges = torch.tensor([0, 10, 100, 1000])
vals = torch.tensor([-5, 0, 9, 10, 55, 999, 1000, 5000])
print("bucketize", torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print("searchsorted", torch.searchsorted(edges, vals), torch.searchsorted(edges, vals, side="right"))
print("bucket int32", torch.bucketize(vals, edges, out_int32=True).dtype)
print("digit count", torch.floor(torch.log10(vals.clamp(min=1).float())).long() + 1)
