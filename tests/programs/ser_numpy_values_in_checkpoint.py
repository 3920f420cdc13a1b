# A checkpoint that accidentally holds numpy values (best accuracy as np.float64, a confusion
# matrix as np.ndarray, python ints from np.int64): weights_only=True refuses them, and users
# either convert with .item()/torch.from_numpy or allowlist the numpy globals.
import io

import numpy as np
import torch
import torch.nn as nn

model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    model.bias.zero_()
preds = np.array([0, 1, 1, 0, 1])
labels = np.array([0, 1, 0, 0, 1])
acc = (preds == labels).mean()
print(type(acc).__name__, acc)


def save(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return buf


for name, value in [("best_acc", acc), ("confusion", np.eye(2, dtype=np.int64)), ("epoch", np.int64(3))]:
    buf = save({"model": model.state_dict(), name: value})
    try:
        torch.load(buf, weights_only=True)
        print(name, "loaded")
    except Exception as e:
        line = [l for l in str(e).splitlines() if "WeightsUnpickler" in l][0].strip()
        print(name, type(e).__name__, line.split(" was not")[0].replace("numpy.core", "numpy._core"))
    buf.seek(0)
    full = torch.load(buf, weights_only=False)
    print(type(full[name]).__name__, full[name])

clean = {"model": model.state_dict(), "best_acc": float(acc), "confusion": torch.from_numpy(np.eye(2)),
         "epoch": int(np.int64(3))}
ck = torch.load(save(clean), weights_only=True)
print(ck["best_acc"], ck["confusion"], ck["confusion"].dtype, ck["epoch"])

arr = torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
back = torch.load(save({"a": arr, "n": arr.numpy()}), weights_only=False)
print(back["a"], type(back["n"]).__name__, back["n"].dtype)
arr.add_(1)
print(back["a"][0], back["n"][0])
