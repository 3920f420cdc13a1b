# A hand-written optimizer that keeps a short gradient history (lists/tuples/dicts of tensors) in its
# state, checkpointed through io.BytesIO and resumed on a float64 copy of the model (model.double()).
import io

import torch
import torch.nn as nn


class HistorySGD(torch.optim.Optimizer):
    """SGD on the average of the last `window` gradients."""

    def __init__(self, params, lr=0.1, window=3):
        super().__init__(params, dict(lr=lr, window=window))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = torch.tensor(0.0)
                    state["history"] = []
                    state["stats"] = {"max_abs": torch.zeros_like(p), "count": 0}
                state["step"] += 1
                state["history"].append(p.grad.clone())
                state["history"] = state["history"][-group["window"]:]
                state["stats"]["max_abs"] = torch.maximum(state["stats"]["max_abs"], p.grad.abs())
                state["stats"]["count"] += 1
                state["last"] = (p.grad.norm(), int(state["step"].item()))
                avg = torch.stack(state["history"]).mean(0)
                p.add_(avg, alpha=-group["lr"])


model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.2, -0.1, 0.4]]))
    model.bias.fill_(0.0)
x = torch.stack([torch.linspace(0, 1, 8), torch.cos(torch.arange(8.0)), torch.sin(torch.arange(8.0))], 1)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.25

opt = HistorySGD(model.parameters(), lr=0.2, window=3)
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.5f}")
st = opt.state[model.weight]
print(len(st["history"]), st["stats"]["count"], st["last"][1], sorted(st.keys()))

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, buf)
buf.seek(0)
ckpt = torch.load(buf)

model64 = nn.Linear(3, 1).double()
model64.load_state_dict(ckpt["model"])
opt64 = HistorySGD(model64.parameters(), lr=0.2, window=3)
opt64.load_state_dict(ckpt["opt"])
st64 = opt64.state[model64.weight]
print([h.dtype for h in st64["history"]], st64["stats"]["max_abs"].dtype, st64["stats"]["count"])
print(type(st64["last"]).__name__, st64["last"][0].dtype, st64["last"][1], st64["step"].dtype)
print(st64["history"] is ckpt["opt"]["state"][0]["history"])

x64, y64 = x.double(), y.double()
for it in range(3):
    opt64.zero_grad()
    loss = nn.functional.mse_loss(model64(x64), y64)
    loss.backward()
    opt64.step()
    print("resumed", it, f"{loss.item():.5f}", model64.weight.dtype)
print([h.dtype for h in opt64.state[model64.weight]["history"]])
