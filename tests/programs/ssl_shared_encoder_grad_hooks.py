# Inspecting how gradients reach a shared (siamese) encoder in a contrastive setup: tensor hooks on
# both branches' embeddings, retain_grad, a full backward hook on the encoder, gradient accumulation
# over two views, torch.autograd.grad w.r.t. the projections, and clip_grad_norm_ with foreach.
import torch
import torch.nn as nn
import torch.nn.functional as F

encoder = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
with torch.no_grad():
    for i, p in enumerate(encoder.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 2 * i).view_as(p) * 0.6)

seen = []
encoder.register_full_backward_hook(
    lambda mod, gin, gout: seen.append(("module", [tuple(g.shape) for g in gout], gin[0] is None)))

x = torch.cos(torch.arange(5 * 4, dtype=torch.float32) * 0.5).view(5, 4)
view1, view2 = x, torch.flip(x, dims=[0])

z1 = encoder(view1)
z2 = encoder(view2)
z1.retain_grad()
h1 = z1.register_hook(lambda g: seen.append(("z1", round(g.norm().item(), 4))))
h2 = z2.register_hook(lambda g: seen.append(("z2", round(g.norm().item(), 4))))
n1, n2 = F.normalize(z1, dim=1), F.normalize(z2, dim=1)
logits = n1 @ n2.T / 0.3
labels = torch.arange(5).flip(0)
loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
gz1, gz2 = torch.autograd.grad(loss, (z1, z2), retain_graph=True)
print("dL/dz norms", f"{gz1.norm().item():.4f}", f"{gz2.norm().item():.4f}")
loss.backward()
print("loss", f"{loss.item():.4f}")
print("z1.grad equal autograd.grad", torch.allclose(z1.grad, gz1))
print("events", seen)
print("enc grad", encoder[2].weight.grad.round(decimals=4))
h1.remove(); h2.remove()

# accumulate the two views separately: the shared grads add up
encoder.zero_grad()
for v in (view1, view2):
    (encoder(v).pow(2).mean() / 2).backward()
acc = encoder[0].bias.grad.clone()
encoder.zero_grad()
((encoder(view1).pow(2).mean() + encoder(view2).pow(2).mean()) / 2).backward()
print("accumulated == joint", torch.allclose(acc, encoder[0].bias.grad, atol=1e-7))
total = nn.utils.clip_grad_norm_(encoder.parameters(), max_norm=0.05, foreach=True)
print("pre-clip norm", f"{total.item():.4f}",
      "post", f"{torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in encoder.parameters()])).item():.4f}")
encoder[0].bias.grad[0] = float("nan")
try:
    nn.utils.clip_grad_norm_(encoder.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
print("after events", len(seen))
