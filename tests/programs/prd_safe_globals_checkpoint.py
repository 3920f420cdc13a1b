# Loading checkpoints that hold custom config objects with weights_only=True: add_safe_globals / safe_globals.
import io
import os
import tempfile
import dataclasses
import torch
import torch.nn as nn

@dataclasses.dataclass
class TrainConfig:
    lr: float = 3e-4
    epochs: int = 10
    name: str = "baseline"

class Mode:
    def __init__(self, v):
        self.v = v

model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.eye(2) * 0.5)
    model.bias.zero_()
cfg = TrainConfig(lr=1e-3)
ckpt = {"model": model.state_dict(), "config": cfg, "mode": Mode(2)}

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save(ckpt, path)
    print("saved:", os.path.exists(path), os.path.getsize(path) > 0)
    try:
        torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:
        msg = str(e)
        print(type(e).__name__, "Weights only load failed" in msg, "TrainConfig" in msg)
    with torch.serialization.safe_globals([TrainConfig, Mode]):
        ok = torch.load(path, map_location="cpu", weights_only=True)
    print(ok["config"], ok["mode"].v)
    torch.serialization.add_safe_globals([TrainConfig])
    print(TrainConfig in torch.serialization.get_safe_globals())
    try:
        torch.load(path, weights_only=True)
    except Exception as e:
        print(type(e).__name__, "Mode" in str(e))
    torch.serialization.clear_safe_globals()
    print(len(torch.serialization.get_safe_globals()))
    full = torch.load(path, weights_only=False)
    print(full["config"].name, full["config"].epochs)
    m2 = nn.Linear(2, 2)
    print(m2.load_state_dict(full["model"]), m2.weight)
    torch.save(model.state_dict(), path)
    sd = torch.load(path, weights_only=True, map_location=lambda storage, loc: storage)
    print(list(sd.keys()), sd["bias"])
print("cleaned:", not os.path.exists(path))

try:
    torch.load(io.BytesIO(b"not a checkpoint"), weights_only=True)
except Exception as e:
    print(type(e).__name__)
buf = io.BytesIO()
torch.save({"a": torch.zeros(2)}, buf)
buf.seek(0)
try:
    torch.load(buf, map_location="cuda:0", weights_only=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
