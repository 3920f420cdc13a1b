# LoRA "from scratch" via parametrizations: inject a low-rank delta into every nn.Linear of a small
# MLP-mixer-ish model with register_parametrization, freeze the base weights, train only A/B,
# toggle the adapters on/off, then merge with remove_parametrizations(leave_parametrized=True).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.parametrize as P


class LoRA(nn.Module):
    def __init__(self, fan_out, fan_in, rank=2, alpha=4.0):
        super().__init__()
        self.A = nn.Parameter(torch.cos(torch.arange(rank * fan_in, dtype=torch.float32)).view(rank, fan_in) * 0.1)
        self.B = nn.Parameter(torch.zeros(fan_out, rank))
        self.scale = alpha / rank
        self.enabled = True

    def forward(self, W):
        if not self.enabled:
            return W
        return W + (self.B @ self.A) * self.scale


model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.45 + i).view_as(p) * 0.5)

X = torch.stack([torch.linspace(-1, 1, 16), torch.cos(torch.linspace(0, 3, 16)),
                 torch.linspace(0, 1, 16) ** 2, torch.sin(torch.linspace(0, 6, 16))], 1)
y = torch.stack([X[:, 0] * X[:, 1], X[:, 2] - X[:, 3]], 1)
base_out = model(X).detach()

for name, mod in model.named_modules():
    if isinstance(mod, nn.Linear):
        P.register_parametrization(mod, "weight", LoRA(*mod.weight.shape))
for name, p in model.named_parameters():
    p.requires_grad = ".A" in name or ".B" in name
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(trainable)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))
print(torch.allclose(model(X), base_out))

opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = F.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 29:
        print(step, f"{loss.item():.4f}")

print(model[0].parametrizations.weight.original.grad, model[0].bias.grad)
print(model[4].parametrizations.weight[0].B)


def set_lora(enabled):
    for m in model.modules():
        if isinstance(m, LoRA):
            m.enabled = enabled


with torch.no_grad():
    tuned = model(X)
    set_lora(False)
    print("adapters off matches base:", torch.allclose(model(X), base_out))
    set_lora(True)

sd_keys = [k for k in model.state_dict() if k.startswith("2.")]
print(sd_keys)
for m in model.modules():
    if P.is_parametrized(m, "weight"):
        P.remove_parametrizations(m, "weight", leave_parametrized=True)
print(model)
print([n for n, _ in model.named_parameters()], [p.requires_grad for p in model.parameters()])
with torch.no_grad():
    print("merged matches:", torch.allclose(model(X), tuned, atol=1e-6))
print(f"final {F.mse_loss(model(X), y).item():.4f}")
