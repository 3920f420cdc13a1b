# A 1-d Fourier neural operator layer (Li et al.) as in its reference code: rfft, a learned
# complex multiplication of the lowest modes (einsum on cfloat weights), irfft, trained with Adam.
import torch
import torch.nn as nn


class SpectralConv1d(nn.Module):
    def __init__(self, in_channels, out_channels, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (in_channels * out_channels)
        weights = torch.arange(in_channels * out_channels * modes, dtype=torch.float32)
        weights = (weights.sin() + 1j * weights.cos()).reshape(in_channels, out_channels, modes)
        self.weights = nn.Parameter(scale * weights.to(torch.cfloat))

    def forward(self, x):
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.shape[0], self.weights.shape[1], x.shape[-1] // 2 + 1,
                             dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = torch.einsum("bix,iox->box", x_ft[:, :, :self.modes], self.weights)
        return torch.fft.irfft(out_ft, n=x.shape[-1])


class FNO(nn.Module):
    def __init__(self):
        super().__init__()
        self.lift = nn.Linear(2, 8)
        self.spectral = SpectralConv1d(8, 8, modes=6)
        self.pointwise = nn.Conv1d(8, 8, 1)
        self.project = nn.Linear(8, 1)
        with torch.no_grad():
            for i, p in enumerate(p for n, p in self.named_parameters() if "spectral" not in n):
                p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))

    def forward(self, u, grid):
        h = self.lift(torch.stack([u, grid.expand_as(u)], dim=-1)).permute(0, 2, 1)
        h = torch.tanh(self.spectral(h) + self.pointwise(h))
        return self.project(h.permute(0, 2, 1)).squeeze(-1)


grid = torch.linspace(0, 1, 32)
u = torch.stack([torch.sin((k + 1) * 3.14159 * grid) for k in range(4)])
target = torch.stack([torch.cos((k + 1) * 3.14159 * grid) * 0.5 for k in range(4)])
model = FNO()
print(model.spectral.weights.dtype, model.spectral.weights.shape, model.spectral.weights.is_complex())
opt = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for step in range(25):
    opt.zero_grad()
    loss = ((model(u, grid) - target) ** 2).mean()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("loss decreased:", losses[-1] < losses[0] * 0.7)
print(model.spectral.weights.grad.dtype, model.spectral.weights.grad.shape)
state = opt.state[model.spectral.weights]
print(sorted(state), state["exp_avg"].dtype, state["exp_avg_sq"].dtype)
print(type(model(u, grid).grad_fn).__name__)
