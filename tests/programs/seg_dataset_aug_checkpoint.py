# Segmentation data pipeline + checkpointing: a Dataset yielding (image, mask) pairs with deterministic
# flip/rot90 augmentation, DataLoader batching, forward hooks capturing decoder features,
# torch.save/torch.load of a checkpoint dict through io.BytesIO, load_state_dict strict errors.
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader


class ShapesSeg(Dataset):
    def __init__(self, n=6, size=8):
        self.n, self.size = n, size

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        s = self.size
        yy, xx = torch.meshgrid(torch.arange(s, dtype=torch.float32), torch.arange(s, dtype=torch.float32), indexing="ij")
        img = torch.stack([torch.sin(xx * (i + 1) / 4), torch.cos(yy * (i + 1) / 5)])
        mask = torch.where(xx > s - 2, 2, ((xx - i) ** 2 + (yy - s / 2) ** 2 < 6).long())
        if i % 2:
            img, mask = img.flip(-1), mask.flip(-1)
        if i % 3 == 0:
            img, mask = torch.rot90(img, 1, dims=(1, 2)), torch.rot90(mask, 1, dims=(0, 1))
        return img, mask


ds = ShapesSeg()
img, mask = ds[3]
print(img.shape, mask.shape, mask.dtype, mask.is_contiguous(), torch.bincount(mask.flatten()))
dl = DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
for xb, yb in dl:
    print(xb.shape, yb.shape, yb.dtype, yb.unique().tolist())

model = nn.Sequential(nn.Conv2d(2, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6), nn.ReLU(),
                      nn.Conv2d(6, 6, 3, padding=1), nn.ReLU(), nn.Conv2d(6, 3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.1 + i).view_as(p) * 0.3)

feats = {}
h = model[3].register_forward_hook(lambda m, inp, out: feats.__setitem__("dec", out.detach()))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    tot = 0.0
    for xb, yb in dl:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * xb.size(0)
    print(epoch, f"{tot / len(ds):.4f}", feats["dec"].shape)
h.remove()
print(len(model[3]._forward_hooks), model[1].running_mean.numpy().round(4), model[1].num_batches_tracked)

buf = io.BytesIO()
torch.save({"epoch": 3, "model": model.state_dict(), "optim": opt.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)
print(ckpt["epoch"], list(ckpt["model"].keys())[:4], list(ckpt["optim"]["state"].keys())[:3])
print(ckpt["optim"]["param_groups"][0]["lr"], ckpt["optim"]["state"][0]["step"])
model2 = nn.Sequential(nn.Conv2d(2, 6, 3, padding=1, bias=False), nn.BatchNorm2d(6), nn.ReLU(),
                       nn.Conv2d(6, 6, 3, padding=1), nn.ReLU(), nn.Conv2d(6, 3, 1))
print(model2.load_state_dict(ckpt["model"]))
model2.eval(), model.eval()
with torch.no_grad():
    print(torch.equal(model(xb), model2(xb)))
bad = dict(ckpt["model"])
bad["5.weight"] = bad["5.weight"][:2]
bad["extra.bias"] = torch.zeros(1)
del bad["1.running_var"]
try:
    model2.load_state_dict(bad)
except RuntimeError as e:
    print(str(e))
res = model2.load_state_dict({k: v for k, v in ckpt["model"].items() if not k.startswith("5.")}, strict=False)
print(res.missing_keys, res.unexpected_keys)
