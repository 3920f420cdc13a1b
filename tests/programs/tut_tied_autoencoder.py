# An autoencoder with tied weights, as in the "tied weights autoencoder in PyTorch" answers:
# the decoder reuses the encoder's weight through F.linear(h, self.encoder.weight.t()) with its
# own bias; compared with an untied model, trained with MSELoss, and checked that the single
# weight receives gradient from both uses. Also a denoising variant and a sparse (L1) penalty.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedAutoEncoder(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.encoder = nn.Linear(inp, out, bias=True)
        self.decoder_bias = nn.Parameter(torch.zeros(inp))

    def forward(self, x):
        encoded = torch.sigmoid(self.encoder(x))
        decoded = F.linear(encoded, self.encoder.weight.t(), self.decoder_bias)
        return encoded, decoded


class UntiedAutoEncoder(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.encoder = nn.Linear(inp, out)
        self.decoder = nn.Linear(out, inp)

    def forward(self, x):
        encoded = torch.sigmoid(self.encoder(x))
        return encoded, self.decoder(encoded)


tied, untied = TiedAutoEncoder(6, 3), UntiedAutoEncoder(6, 3)
with torch.no_grad():
    w = torch.linspace(-0.5, 0.5, 18).view(3, 6) * torch.cos(torch.arange(18.).view(3, 6))
    tied.encoder.weight.copy_(w)
    tied.encoder.bias.copy_(torch.tensor([0.1, -0.1, 0.05]))
    untied.encoder.weight.copy_(w)
    untied.encoder.bias.copy_(tied.encoder.bias)
    untied.decoder.weight.copy_(w.t())
    untied.decoder.bias.zero_()
print(tied, untied, sep="\n")
print([n for n, _ in tied.named_parameters()], sum(p.numel() for p in tied.parameters()), sum(p.numel() for p in untied.parameters()))

x = torch.sin(torch.arange(8 * 6, dtype=torch.float32) * 0.4).view(8, 6)
enc_t, dec_t = tied(x)
enc_u, dec_u = untied(x)
print(torch.equal(enc_t, enc_u), torch.allclose(dec_t, dec_u), dec_t.grad_fn.name(), dec_t[0])

criterion = nn.MSELoss()
loss_t = criterion(dec_t, x)
loss_t.backward()
g_tied = tied.encoder.weight.grad.clone()
loss_u = criterion(dec_u, x)
loss_u.backward()
print(loss_t.item() == loss_u.item(), torch.allclose(g_tied, untied.encoder.weight.grad + untied.decoder.weight.grad.t(), atol=1e-6))
print(g_tied[0], tied.decoder_bias.grad)

for name, model in (("tied", tied), ("untied", untied)):
    opt = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9)
    for epoch in range(4):
        opt.zero_grad()
        encoded, decoded = model(x)
        loss = criterion(decoded, x) + 1e-3 * encoded.abs().sum()
        loss.backward()
        opt.step()
        print(f"{name} epoch {epoch} loss {loss.item():.5f}")
print(tied.encoder.weight[:, :3], tied.decoder_bias)

# denoising: corrupt with a fixed mask, reconstruct the clean input, weights still tied
mask = (torch.arange(48).view(8, 6) % 5 != 0).float()
opt = torch.optim.Adam(tied.parameters(), lr=0.01)
for epoch in range(3):
    opt.zero_grad()
    _, decoded = tied(x * mask)
    loss = F.mse_loss(decoded, x, reduction='sum') / x.size(0)
    loss.backward()
    opt.step()
    print(f"denoise epoch {epoch} loss {loss.item():.4f}")
print(opt.state[tied.encoder.weight]['exp_avg'][0, :3], tied.encoder.weight.t().is_contiguous(), tied.encoder.weight.t().stride())
