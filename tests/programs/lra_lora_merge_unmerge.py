# PEFT-style LoRA layer subclassing nn.Linear: frozen base weight, lora_A/lora_B, dropout, merge and
# unmerge (fan_in_fan_out transpose), mark_only_lora_as_trainable, print_trainable_parameters.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoraLinear(nn.Linear):
    def __init__(self, in_features, out_features, r=2, lora_alpha=8, lora_dropout=0.0, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.r = r
        self.lora_alpha = lora_alpha
        self.scaling = lora_alpha / r
        self.lora_A = nn.Parameter(self.weight.new_zeros((r, in_features)))
        self.lora_B = nn.Parameter(self.weight.new_zeros((out_features, r)))
        self.lora_dropout = nn.Dropout(p=lora_dropout) if lora_dropout > 0 else nn.Identity()
        self.weight.requires_grad = False
        self.merged = False
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)

    def delta_weight(self):
        return (self.lora_B @ self.lora_A) * self.scaling

    def merge(self):
        if not self.merged:
            self.weight.data += self.delta_weight()
            self.merged = True

    def unmerge(self):
        if self.merged:
            self.weight.data -= self.delta_weight()
            self.merged = False

    def forward(self, x):
        result = F.linear(x, self.weight, bias=self.bias)
        if not self.merged:
            result += (self.lora_dropout(x) @ self.lora_A.transpose(0, 1) @ self.lora_B.transpose(0, 1)) * self.scaling
        return result


def mark_only_lora_as_trainable(model, bias="none"):
    for n, p in model.named_parameters():
        if "lora_" not in n:
            p.requires_grad = False
    if bias == "lora_only":
        for m in model.modules():
            if isinstance(m, LoraLinear) and m.bias is not None:
                m.bias.requires_grad = True


def print_trainable_parameters(model):
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model.parameters())
    print(f"trainable params: {trainable:,d} || all params: {total:,d} || trainable%: {100 * trainable / total:.4f}")


model = nn.Sequential(LoraLinear(6, 8, r=2, lora_dropout=0.1), nn.GELU(approximate="tanh"), LoraLinear(8, 3, r=4, lora_alpha=4))
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + len(n)).view_as(p) * 0.3)
print(model)
print_trainable_parameters(model)
mark_only_lora_as_trainable(model)
print_trainable_parameters(model)
mark_only_lora_as_trainable(model, bias="lora_only")
print_trainable_parameters(model)
print([n for n, p in model.named_parameters() if p.requires_grad])

x = torch.linspace(-2, 2, 24).view(4, 6)
target = torch.tensor([0, 2, 1, 2])
model.eval()
y0 = model(x)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2, weight_decay=0.0)
model.train()
model[0].lora_dropout.p = 0.0
for step in range(6):
    loss = F.cross_entropy(model(x), target)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(step, f"{loss.item():.5f}", model[0].weight.grad, model[2].lora_B.grad.abs().sum() > 0)
model.eval()
with torch.no_grad():
    y_unmerged = model(x)
    for m in model.modules():
        if isinstance(m, LoraLinear):
            m.merge()
    y_merged = model(x)
    print(torch.allclose(y_unmerged, y_merged, atol=1e-5), model[0].merged)
    for m in model.modules():
        if isinstance(m, LoraLinear):
            m.unmerge()
    print(torch.allclose(model(x), y_unmerged, atol=1e-5), model[2].merged)
print(y_merged.argmax(-1), (y_merged - y0).abs().max() > 0)
print(model[2].delta_weight().round(decimals=4))
adapter = {k: v for k, v in model.state_dict().items() if "lora_" in k}
print({k: tuple(v.shape) for k, v in adapter.items()})
print(model[0].weight.is_leaf, model[0].weight.requires_grad, model[0].lora_A.grad_fn)
