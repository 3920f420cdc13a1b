# Object-detection style data loading: samples are (image, target-dict) with a variable number
# of boxes, batched with collate_fn=lambda b: tuple(zip(*b)); nested subsets and concatenation.
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset, random_split


class ToyDetection(Dataset):
    def __init__(self, n, offset=0, transforms=None):
        self.n, self.offset, self.transforms = n, offset, transforms

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        k = idx + self.offset
        img = torch.arange(3 * 4 * 4, dtype=torch.float32).reshape(3, 4, 4) / 48 + k
        nb = k % 3 + 1
        boxes = torch.stack([torch.tensor([i, i, i + 2.0, i + 2.0]) for i in range(nb)])
        target = {"boxes": boxes, "labels": torch.full((nb,), k, dtype=torch.int64),
                  "image_id": k, "iscrowd": torch.zeros(nb, dtype=torch.uint8)}
        if self.transforms is not None:
            img, target = self.transforms(img, target)
        return img, target


class HFlip:
    def __call__(self, img, target):
        w = img.shape[-1]
        img = img.flip(-1)
        boxes = target["boxes"].clone()
        boxes[:, [0, 2]] = w - boxes[:, [2, 0]]
        return img, {**target, "boxes": boxes}


def collate_fn(batch):
    return tuple(zip(*batch))


ds = ToyDetection(5, transforms=HFlip())
loader = DataLoader(ds, batch_size=2, collate_fn=collate_fn)
for images, targets in loader:
    print(type(images).__name__, len(images), images[0].shape)
    for t in targets:
        print(t["image_id"], t["boxes"].tolist(), t["labels"], t["iscrowd"].dtype)
    batch = torch.stack(images)
    print(batch.shape, batch[:, 0, 0, :2])

full = ConcatDataset([ToyDetection(3), ToyDetection(4, offset=100)])
sub = Subset(full, [0, 3, 6])
subsub = Subset(sub, [2, 0])
print(len(full), len(sub), len(subsub), subsub[0][1]["image_id"], subsub[1][1]["image_id"])
a, b = random_split(full, [0.5, 0.5], generator=torch.Generator().manual_seed(0))
print(len(a), len(b), type(a.dataset).__name__)
print(sorted(t["image_id"] for _, t in a) + sorted(t["image_id"] for _, t in b) == sorted(
    t["image_id"] for _, t in full))

try:
    next(iter(DataLoader(ds, batch_size=2)))
except RuntimeError as e:
    print("RuntimeError", str(e).split("\n")[0])
uniform = DataLoader(ToyDetection(6), batch_size=3,
                     sampler=[0, 3], collate_fn=lambda b: b)
print([[(t["image_id"], img.shape[0]) for img, t in batch] for batch in uniform])
stacked = DataLoader(Subset(ToyDetection(9), [0, 3, 6]), batch_size=3)
imgs, tg = next(iter(stacked))
print(imgs.shape, tg["boxes"].shape, tg["image_id"], tg["labels"])
