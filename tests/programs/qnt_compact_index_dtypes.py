# Memory-saving routing tables: expert ids stored as int8/int16/int32 and token counts as int32,
# then used for indexing, gather, repeat_interleave and embedding lookups; shows which index dtypes
# PyTorch accepts (and the errors for the others), and uint8 tables written with Python ints.
import torch
import torch.nn.functional as F

T, E, D = 10, 4, 3
scores = torch.cos(torch.arange(T * E, dtype=torch.float32) * 0.77).view(T, E)
expert_id = scores.argmax(dim=-1)
print("expert ids (int64)", expert_id)

compact = {dt: expert_id.to(dt) for dt in (torch.int8, torch.int16, torch.int32, torch.uint8)}
table = torch.arange(E * D, dtype=torch.float32).view(E, D)
for dt, ids in compact.items():
    try:
        rows = table[ids]
        print(f"table[{dt}] ->", tuple(rows.shape), rows[:, 0].tolist())
    except IndexError as e:
        print(f"table[{dt}] ->", type(e).__name__, e)

for dt, ids in compact.items():
    try:
        g = torch.gather(scores, 1, ids.view(-1, 1))
        print(f"gather {dt} ->", [f"{v:.3f}" for v in g.flatten().tolist()])
    except RuntimeError as e:
        print(f"gather {dt} ->", type(e).__name__, e)

print("index_select int32:", table.index_select(0, compact[torch.int32])[:3, 0].tolist())
print("embedding int32:", F.embedding(compact[torch.int32][:4], table)[:, 1].tolist())
try:
    F.one_hot(compact[torch.int32][:4], E)
except RuntimeError as e:
    print("one_hot int32:", type(e).__name__, e)
print("0-d int8 index:", table[compact[torch.int8][0]].tolist())

counts32 = torch.bincount(expert_id, minlength=E).to(torch.int32)
print("counts int32", counts32)
slots = torch.repeat_interleave(counts32)
print("slot -> expert", slots, slots.dtype)
print("values repeated", torch.arange(E).repeat_interleave(counts32))
offsets = torch.cumsum(counts32, 0, dtype=torch.int32) - counts32
print("offsets", offsets, offsets.dtype)
order = torch.argsort(expert_id, stable=True).to(torch.int32)
position_in_expert = torch.arange(T, dtype=torch.int32) - offsets[slots.long()]
print("order", order, "position", position_in_expert)

# a uint8 occupancy table with -1 meaning "empty" wraps to 255
occupancy = torch.zeros(E, 3, dtype=torch.uint8)
occupancy[:] = -1
for k in range(T):  # k-th token in expert-sorted order
    tok, e, p = order[k].item(), slots[k].item(), position_in_expert[k].item()
    if p < 3:
        occupancy[e, p] = tok
print("occupancy\n", occupancy)
print("empty slots", (occupancy == 255).sum().item())
try:
    occupancy[0, 0] = 256
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    occupancy[0, 0] = 300.0
except RuntimeError as e:
    print(type(e).__name__, e)
scatter_tab = torch.zeros(E, dtype=torch.uint8).scatter(0, torch.tensor([1, 3]), -2)
print("scatter -2 into uint8", scatter_tab)
print("index_fill -1", torch.zeros(E, dtype=torch.uint8).index_fill(0, torch.tensor([0]), -1))
