# torch.save / torch.load round trips into temporary files: tensors, containers, state_dicts.
import io
import os
import tempfile

import torch
import torch.nn as nn


def build(shift):
    model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i + shift).view(p.shape))
    return model


with tempfile.TemporaryDirectory() as tmp:
    t = torch.arange(6, dtype=torch.float64).view(2, 3)
    path = os.path.join(tmp, "t.pt")
    torch.save(t, path)
    back = torch.load(path)
    print(back, back.dtype, back.shape, torch.equal(back, t))

    stuff = {"ints": torch.tensor([1, 2, 3]), "list": [torch.ones(2), 7, "name"], "bools": torch.tensor([True, False])}
    path = os.path.join(tmp, "stuff.pt")
    torch.save(stuff, path)
    back = torch.load(path)
    print(sorted(back), back["ints"], back["ints"].dtype, back["list"], back["bools"])

    view = torch.arange(10.0)[2:6]
    torch.save(view, path)
    back = torch.load(path)
    print(back, back.shape)

    model = build(0.0)
    path = os.path.join(tmp, "model.pt")
    torch.save(model.state_dict(), path)
    fresh = build(3.0)
    x = torch.linspace(-1, 1, 12).view(4, 3)
    print(torch.equal(model(x), fresh(x)))
    state = torch.load(path, weights_only=True)
    print(list(state.keys()))
    print(fresh.load_state_dict(state))
    print(torch.equal(model(x), fresh(x)))
    print(fresh(x))

    # the loaded tensors are independent of the saved model
    with torch.no_grad():
        model[0].bias.add_(1.0)
    print(torch.equal(model(x), fresh(x)), state["0.bias"].requires_grad)

# in-memory buffer
buffer = io.BytesIO()
torch.save({"w": torch.tensor([[1.5, -2.0]]), "step": 3}, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(loaded)

with tempfile.NamedTemporaryFile(suffix=".pt") as f:
    torch.save([torch.zeros(2, dtype=torch.int64), torch.full((1, 2), 0.25)], f.name)
    print(torch.load(f.name))
