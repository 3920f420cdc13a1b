# Spectral normalization in GAN discriminators (SN-GAN): torch.nn.utils.parametrizations.spectral_norm
# and the legacy torch.nn.utils.spectral_norm. The power-iteration vectors u, v are initialised from
# the RNG, so only shapes, names, keys, reprs and RNG-free facts are printed.
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import spectral_norm

lin = spectral_norm(nn.Linear(6, 4))
print(lin)
print(parametrize.is_parametrized(lin), parametrize.is_parametrized(lin, "weight"), parametrize.is_parametrized(lin, "bias"))
print(type(lin.parametrizations).__name__, list(lin.parametrizations.keys()))
sn = lin.parametrizations.weight[0]
print(type(sn).__name__, sn.dim, sn.eps, sn.n_power_iterations)
print(sn._u.shape, sn._v.shape, sn._u.requires_grad)
print(lin.parametrizations.weight.original.shape, lin.parametrizations.weight.original.requires_grad)
print(sorted(lin.state_dict().keys()))
print([n for n, _ in lin.named_parameters()])
print([n for n, _ in lin.named_buffers()])
print(torch.linalg.vector_norm(sn._u).item() > 0.999, torch.linalg.vector_norm(sn._v).item() > 0.999)

conv = spectral_norm(nn.Conv2d(3, 5, 3, padding=1))
s = conv.parametrizations.weight[0]
print(s._u.shape, s._v.shape, conv.weight.shape, s.dim)
convT = spectral_norm(nn.ConvTranspose2d(5, 2, 4, 2, 1))
print(convT.parametrizations.weight[0].dim, convT.parametrizations.weight[0]._u.shape, convT.parametrizations.weight[0]._v.shape)
emb = spectral_norm(nn.Embedding(7, 3))
print(emb.parametrizations.weight[0].dim)

# With enough power iterations, the largest singular value of the normalized weight is ~1.
with torch.no_grad():
    lin.parametrizations.weight.original.copy_(torch.arange(24, dtype=torch.float32).view(4, 6) / 10 - 1)
lin.train()
for _ in range(30):
    w = lin.weight
sigma = torch.linalg.matrix_norm(w.detach(), ord=2)
print(f"{sigma.item():.4f}", w.grad_fn is not None)
lin.eval()
w_eval = lin.weight
print(f"{torch.linalg.svdvals(w_eval.detach())[0].item():.4f}")
print(torch.allclose(w_eval * torch.linalg.matrix_norm(lin.parametrizations.weight.original.detach(), ord=2),
                     lin.parametrizations.weight.original, atol=1e-3))
x = torch.linspace(-1, 1, 12).view(2, 6)
out = lin(x)
out.sum().backward()
print(lin.parametrizations.weight.original.grad.shape, lin.bias.grad)

D = nn.Sequential(spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)), nn.LeakyReLU(0.1),
                  spectral_norm(nn.Conv2d(4, 8, 3, 2, 1)), nn.LeakyReLU(0.1), nn.Flatten(),
                  spectral_norm(nn.Linear(8 * 2 * 2, 1)))
print(D)
print(sum(p.numel() for p in D.parameters()), len(D.state_dict()))
print(D(torch.zeros(3, 1, 8, 8)).shape)

# Legacy hook-based API
old = torch.nn.utils.spectral_norm(nn.Linear(6, 4))
print(old)
print(sorted(n for n, _ in old.named_parameters()), sorted(n for n, _ in old.named_buffers()))
print(old.weight_u.shape, old.weight_v.shape, old.weight_orig.shape, hasattr(old, "weight"))
try:
    torch.nn.utils.spectral_norm(old)
except RuntimeError as e:
    print(type(e).__name__, e)
old = torch.nn.utils.remove_spectral_norm(old)
print(sorted(n for n, _ in old.named_parameters()), isinstance(old.weight, nn.Parameter))
parametrize.remove_parametrizations(lin, "weight")
print(lin, parametrize.is_parametrized(lin), f"{torch.linalg.matrix_norm(lin.weight.detach(), ord=2).item():.4f}")
