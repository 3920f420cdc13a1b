# Extending default collation for custom sample types via collate_fn_map, a mapping/tuple
# subclass sample, and a Dataset implementing __getitems__ for batched fetching.
import collections
import torch
from torch.utils.data import DataLoader, Dataset, default_collate
from torch.utils.data._utils.collate import collate, default_collate_fn_map


class Box:
    def __init__(self, coords):
        self.coords = coords


def collate_boxes(batch, *, collate_fn_map=None):
    return [b.coords for b in batch]


custom_map = dict(default_collate_fn_map)
custom_map[Box] = collate_boxes


def my_collate(batch):
    return collate(batch, collate_fn_map=custom_map)


samples = [{"img": torch.full((2, 2), float(i)), "boxes": Box(torch.arange(i + 1))} for i in range(3)]
out = my_collate(samples)
print(out["img"].shape, out["boxes"])
try:
    default_collate(samples)
except TypeError as e:
    print("TypeError", str(e)[:70])

print(sorted(t.__name__ if isinstance(t, type) else str(t) for t in default_collate_fn_map))


class Record(collections.OrderedDict):
    pass


recs = [Record(a=torch.tensor(i), b=float(i)) for i in range(3)]
r = default_collate(recs)
print(type(r).__name__, list(r.keys()), r["a"], r["b"])

dd = [collections.defaultdict(int, {"k": i}) for i in range(2)]
print(type(default_collate(dd)).__name__, default_collate(dd)["k"])


class BatchedDS(Dataset):
    def __init__(self, n):
        self.data = torch.arange(n * 2.).reshape(n, 2)
        self.calls = []

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        self.calls.append(("item", i))
        return self.data[i]

    def __getitems__(self, idxs):
        self.calls.append(("items", list(idxs)))
        return [self.data[i] for i in idxs]


bd = BatchedDS(5)
for x in DataLoader(bd, batch_size=2):
    print(x.tolist())
print(bd.calls)


class Pair(tuple):
    pass


print(type(default_collate([Pair((1, 2)), Pair((3, 4))])).__name__)
mixed = [torch.tensor([1, 2]), torch.tensor([3.5, 4.5])]
try:
    print(default_collate(mixed))
except RuntimeError as e:
    print("RuntimeError", e)
print(default_collate([torch.tensor([True]), torch.tensor([False])]))
print(default_collate([b"ab", b"cd"]))
