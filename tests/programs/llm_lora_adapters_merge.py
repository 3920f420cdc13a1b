# LoRA written by hand the way minimal fine-tuning repos do it: a wrapper around a frozen nn.Linear
# with lora_A / lora_B (B zero-initialised), scaling = alpha / r, counting trainable parameters,
# saving only the lora_ state, merging B @ A into the base weight, and the parametrize variant.
import io
import math

import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=2, alpha=4):
        super().__init__()
        self.base = base
        self.r, self.scaling = r, alpha / r
        self.lora_A = nn.Parameter(torch.zeros(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling
        return out

    def merge(self):
        with torch.no_grad():
            self.base.weight += (self.lora_B @ self.lora_A) * self.scaling
        self.merged = True

    def extra_repr(self):
        return f"r={self.r}, scaling={self.scaling}"


model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).view_as(p))
x = torch.linspace(-1, 1, 8).view(2, 4)
before = model(x)

for p in model.parameters():
    p.requires_grad = False
model[0] = LoRALinear(model[0])
model[2] = LoRALinear(model[2], r=1, alpha=1)
print(model)
print(torch.equal(model(x), before), model[0].lora_B.abs().sum())
with torch.no_grad():
    model[0].lora_A.copy_(torch.linspace(-0.5, 0.5, 8).view(2, 4))
    model[2].lora_A.copy_(torch.linspace(0.1, 0.6, 6).view(1, 6))
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"trainable params: {trainable} || all params: {total} || trainable%: {100 * trainable / total:.4f}")
print([n for n, p in model.named_parameters() if p.requires_grad])

opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.5)
for step in range(3):
    loss = (model(x) - torch.tensor([[1.0, 0.0, -1.0]])).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6), model[0].lora_B.grad.norm().item() > 0, model[0].base.weight.grad)
print(model[0].lora_B, model[2].lora_B)

lora_state = {k: v for k, v in model.state_dict().items() if "lora_" in k}
print(list(lora_state.keys()))
buf = io.BytesIO()
torch.save(lora_state, buf)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
print(sorted(loaded), loaded["2.lora_B"])
result = model.load_state_dict(loaded, strict=False)
print(type(result).__name__, result.missing_keys, result.unexpected_keys)
print(result)

y_unmerged = model(x)
model[0].merge()
model[2].merge()
print(torch.allclose(model(x), y_unmerged, atol=1e-6), model[0].base.weight.requires_grad)
print(model[2].base.weight)


# the same adapter via torch.nn.utils.parametrize
class LoRAParametrization(nn.Module):
    def __init__(self, A, B, scale):
        super().__init__()
        self.lora_A, self.lora_B, self.scale = nn.Parameter(A), nn.Parameter(B), scale

    def forward(self, W):
        return W + (self.lora_B @ self.lora_A) * self.scale


lin = nn.Linear(4, 3, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.0).view(3, 4) / 10)
parametrize.register_parametrization(lin, "weight", LoRAParametrization(torch.ones(1, 4), torch.full((3, 1), 0.5), 2.0))
print(lin)
print(lin.weight, parametrize.is_parametrized(lin), parametrize.is_parametrized(lin, "bias"))
print([n for n, _ in lin.named_parameters()], list(lin.state_dict().keys()))
print(lin.parametrizations.weight.original)
lin.weight.sum().backward()
print(lin.parametrizations.weight[0].lora_A.grad, lin.parametrizations.weight.original.grad)
parametrize.remove_parametrizations(lin, "weight", leave_parametrized=True)
print(lin, lin.weight, [n for n, _ in lin.named_parameters()])
try:
    parametrize.remove_parametrizations(lin, "weight")
except ValueError as e:
    print(type(e).__name__, e)
