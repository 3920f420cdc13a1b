# A reusable preprocessing pipeline: a StandardScaler nn.Module with buffers, a checkpoint dict that
# stores the scaler, feature metadata (names, dtype, shape, device, category set) and the model,
# saved to io.BytesIO and loaded back with the default torch.load (weights_only) settings.
import io
import torch
import torch.nn as nn

class StandardScaler(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n_features))
        self.register_buffer("scale", torch.ones(n_features))
        self.register_buffer("n_samples_seen", torch.tensor(0))

    @torch.no_grad()
    def fit(self, X):
        self.mean.copy_(X.mean(0))
        self.scale.copy_(X.std(0, unbiased=False).clamp_min(1e-12))
        self.n_samples_seen.fill_(X.shape[0])
        return self

    def forward(self, X):
        return (X - self.mean) / self.scale

    def inverse_transform(self, Z):
        return Z * self.scale + self.mean

    def extra_repr(self):
        return f"n_features={self.mean.numel()}"

X = torch.tensor([[1., 10., 5.], [3., 30., 5.], [5., 20., 5.], [7., 40., 5.]])
scaler = StandardScaler(3).fit(X)
print(scaler)
print(scaler.state_dict())
Z = scaler(X)
print(Z, Z.mean(0), scaler.inverse_transform(Z).allclose(X))
print([n for n, _ in scaler.named_buffers()], list(scaler.parameters()))
model = nn.Sequential(scaler, nn.Linear(3, 1))
with torch.no_grad():
    model[1].weight.copy_(torch.tensor([[0.5, -0.25, 1.0]]))
    model[1].bias.fill_(0.1)
print(model(X[:2]))
print(list(model.state_dict().keys()))

ckpt = {
    "model": model.state_dict(),
    "feature_names": ["age", "income", "const"],
    "input_shape": X.shape[1:],
    "dtype": X.dtype,
    "device": X.device,
    "categories": {"red", "green"},
    "version": (1, 2),
}
buf = io.BytesIO()
torch.save(ckpt, buf)
buf.seek(0)
try:
    loaded = torch.load(buf)
    print(sorted(loaded.keys()))
    print(loaded["input_shape"], loaded["dtype"], loaded["device"], sorted(loaded["categories"]), loaded["version"])
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
buf.seek(0)
loaded = torch.load(buf, weights_only=False)
print(loaded["input_shape"], type(loaded["input_shape"]).__name__, loaded["dtype"], loaded["device"].type)
fresh = nn.Sequential(StandardScaler(3), nn.Linear(3, 1))
print(fresh[0].mean, fresh.load_state_dict(loaded["model"]))
print(fresh[0].mean, fresh[0].n_samples_seen, fresh(X[:2]).detach())
Xnew = torch.zeros(2, *loaded["input_shape"], dtype=loaded["dtype"])
print(Xnew.shape, Xnew.dtype, fresh(Xnew).shape)

sd_buf = io.BytesIO()
torch.save({"scaler": scaler.state_dict(), "shape": list(X.shape), "dtype": str(X.dtype)}, sd_buf)
sd_buf.seek(0)
plain = torch.load(sd_buf)
print(plain["shape"], plain["dtype"], plain["scaler"]["scale"])
print(getattr(torch, plain["dtype"].split(".")[1]), torch.Size(plain["shape"]))
for obj in [torch.float64, torch.Size([2, 3]), torch.device("cpu"), {1, 2}, b"raw", torch.int64]:
    b = io.BytesIO()
    torch.save({"value": obj}, b)
    b.seek(0)
    try:
        print(torch.load(b)["value"])
    except Exception as e:
        print(type(e).__name__)
