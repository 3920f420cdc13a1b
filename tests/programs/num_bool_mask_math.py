# Doing math directly on boolean masks and uint8 images (what works, what PyTorch refuses), plus the
# method spellings users reach for: floor_divide, msort, trace on small int types, lerp dtype checks.
import torch


def show(label, fn):
    try:
        out = fn()
        print(f"{label:22s}", out, getattr(out, "dtype", type(out).__name__))
    except Exception as e:  # noqa: BLE001
        print(f"{label:22s}", type(e).__name__ + ":", e)


mask = torch.tensor([[True, False, True], [False, False, True]])
img = torch.tensor([[7, 200, 3], [0, 255, 16]], dtype=torch.uint8)
show("mask.sum(1)", lambda: mask.sum(1))
show("mask.float().mean(1)", lambda: mask.float().mean(1))
show("mask.square()", lambda: mask.square())
show("mask.round()", lambda: mask.round())
show("mask.floor()", lambda: mask.floor())
show("mask.abs()", lambda: mask.abs())
show("mask.relu()", lambda: mask.relu())
show("mask.argmax(1)", lambda: mask.argmax(1))
show("mask.int().argmax(1)", lambda: mask.int().argmax(1))
show("mask.topk(1)", lambda: mask[0].topk(1))
show("mask.median()", lambda: mask.median())
show("mask[0].dot(mask[1])", lambda: mask[0].dot(mask[1]))
show("mask.int() @ mask.T", lambda: mask.int() @ mask.T.int())
show("mask.float() @ mask.T", lambda: mask.float() @ mask.T.float())
show("mask[:, :2].trace()", lambda: mask[:, :2].trace())
show("mask.softmax(1)", lambda: mask.softmax(1))
show("mask.float().softmax", lambda: mask.float().softmax(1))
show("mask.sort(1)", lambda: mask.sort(1).values)
show("mask.max(1)", lambda: mask.max(1))
show("mask.cumsum(1)", lambda: mask.cumsum(1))
show("mask.sum() / numel", lambda: mask.sum() / mask.numel())
show("img[:, :2].trace()", lambda: img[:, :2].trace())
show("img.trace() int8", lambda: img[:, :2].to(torch.int8).trace())
show("img.floor_divide(16)", lambda: img.floor_divide(16))
show("torch.floor_divide", lambda: torch.floor_divide(img, 16))
show("img.msort()", lambda: img.msort())
show("torch.msort", lambda: torch.msort(img.float()))
show("img.float().lerp(int)", lambda: img.float().lerp(img, 0.5))
show("img.float().lerp(f)", lambda: img.float().lerp(torch.zeros(2, 3), 0.25))
show("img.bincount", lambda: img.flatten().bincount().shape)
show("img.float().bincount", lambda: img.flatten().float().bincount())
show("img.histc", lambda: img.histc(bins=4))
show("img.float().histc", lambda: img.float().histc(bins=4, min=0, max=256))
show("img.sort(1)", lambda: img.sort(1))
show("img.unique()", lambda: img.unique())
show("img.median(1)", lambda: img.median(1))
show("img.mode(1)", lambda: img.mode(1).values)
show("img.renorm", lambda: img.float().renorm(2, 0, 100))
