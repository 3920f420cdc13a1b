# predict.py: load weights into a fresh model, set_grad_enabled(False), batch inference, half-precision casting checks.
import io
import torch
import torch.nn as nn

class Classifier(nn.Module):
    def __init__(self, n_in=4, n_cls=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 8), nn.LayerNorm(8), nn.SiLU())
        self.head = nn.Linear(8, n_cls)

    def forward(self, x):
        return self.head(self.body(x))

src = Classifier()
with torch.no_grad():
    for i, p in enumerate(src.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape) * 0.7)
buf = io.BytesIO()
torch.save(src.state_dict(), buf)
buf.seek(0)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = Classifier()
state = torch.load(buf, map_location=device, weights_only=True)
state = {k.removeprefix("module."): v for k, v in state.items()}
print(model.load_state_dict(state, strict=True))
model.to(device).eval()
for p in model.parameters():
    p.requires_grad = False
print(all(not p.requires_grad for p in model.parameters()), model.training)

torch.set_grad_enabled(False)
print("grad enabled:", torch.is_grad_enabled())
X = torch.linspace(-1, 1, 40).reshape(10, 4)
preds, probs_all = [], []
for batch in X.split(4):
    logits = model(batch.to(device))
    probs = logits.softmax(dim=-1)
    conf, cls = probs.max(dim=-1)
    preds.extend(cls.tolist())
    probs_all.append(probs)
print(preds)
probs = torch.cat(probs_all)
print(probs.round(decimals=3))
print(torch.allclose(probs.sum(-1), torch.ones(10)), probs.requires_grad, logits.grad_fn)
torch.set_grad_enabled(True)
print("grad enabled:", torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())

m16 = Classifier().half()
print(next(m16.parameters()).dtype, m16.head.bias.dtype)
m64 = Classifier().double()
print(m64.head.weight.dtype, model.float().head.weight.dtype)
h = X.half()
print(h.dtype, h.float().dtype, h[0])
bf = torch.tensor([1.0, 2.0]).to(torch.float16)
print(bf, bf.element_size(), torch.finfo(torch.float16).max)
scripted_like = torch.no_grad()(lambda x: model(x).argmax(-1))
print(scripted_like(X[:3]).tolist())
