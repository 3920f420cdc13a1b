# PatchTST-style forecaster as in the official repo / blog reimplementations: RevIN (mean and
# std over time with keepdim, unbiased=False, affine), ReplicationPad1d((0, stride)) then
# Tensor.unfold(-1, patch_len, stride) into patches, a shared Linear patch embedding with a
# learned positional table, a small TransformerEncoder, a flatten head, then denormalisation.
import math
import torch
import torch.nn as nn


class RevIN(nn.Module):
    def __init__(self, n_vars, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.affine_weight = nn.Parameter(torch.ones(n_vars))
        self.affine_bias = nn.Parameter(torch.zeros(n_vars))

    def forward(self, x, mode):
        if mode == "norm":
            self.mean = x.mean(dim=1, keepdim=True).detach()
            self.stdev = torch.sqrt(torch.var(x, dim=1, keepdim=True, unbiased=False) + self.eps).detach()
            x = (x - self.mean) / self.stdev
            return x * self.affine_weight + self.affine_bias
        x = (x - self.affine_bias) / (self.affine_weight + self.eps * self.eps)
        return x * self.stdev + self.mean


class PatchTST(nn.Module):
    def __init__(self, n_vars, seq_len, pred_len, patch_len=8, stride=4, d_model=16):
        super().__init__()
        self.patch_len, self.stride = patch_len, stride
        self.revin = RevIN(n_vars)
        self.pad = nn.ReplicationPad1d((0, stride))
        self.n_patches = (seq_len - patch_len) // stride + 2
        self.embed = nn.Linear(patch_len, d_model)
        self.pos = nn.Parameter(torch.zeros(1, self.n_patches, d_model))
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, dropout=0.0,
                                           batch_first=True, norm_first=False)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.Flatten(start_dim=-2), nn.Linear(self.n_patches * d_model, pred_len))

    def forward(self, x):                      # x: [B, L, C]
        x = self.revin(x, "norm")
        x = x.permute(0, 2, 1)                 # [B, C, L]
        x = self.pad(x)
        patches = x.unfold(dimension=-1, size=self.patch_len, step=self.stride)  # [B, C, N, P]
        B, C, N, P = patches.shape
        z = self.embed(patches).reshape(B * C, N, -1) + self.pos
        z = self.encoder(z)
        z = z.reshape(B, C, N, -1)
        out = self.head(z).permute(0, 2, 1)    # [B, pred_len, C]
        return self.revin(out, "denorm")


torch.set_printoptions(precision=4)
seq_len, pred_len, n_vars = 32, 8, 2
t = torch.arange(200, dtype=torch.float32)
series = torch.stack([torch.sin(t / 6) * 3 + 10, torch.cos(t / 9) + 0.02 * t], dim=1)
windows = series.unfold(0, seq_len + pred_len, 6).permute(0, 2, 1)  # [W, L+H, C]
print("windows", tuple(windows.shape), windows.is_contiguous())
X, Y = windows[:, :seq_len], windows[:, seq_len:]

model = PatchTST(n_vars, seq_len, pred_len)
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        if name.startswith("revin"):
            continue
        n = p.numel()
        p.copy_((torch.sin(torch.arange(n, dtype=torch.float32) * 0.37 + i) * 0.3 / math.sqrt(p.shape[-1])).reshape(p.shape))
print("n_patches", model.n_patches)
padded = model.pad(X[:1].permute(0, 2, 1))
print("padded tail", padded[0, 0, -6:])
print("patch grid", tuple(padded.unfold(-1, 8, 4).shape))

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.MSELoss()
for step in range(30):
    opt.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 6 == 0 or step == 29:
        print(f"step {step:2d} loss {loss.item():.4f} gnorm {gn.item():.4f}")

model.eval()
with torch.no_grad():
    pred = model(X[-2:])
print("pred", tuple(pred.shape))
print(pred[0, :4])
print("revin weight", model.revin.affine_weight.data)
print("revin mean", model.revin.mean.squeeze(1))
