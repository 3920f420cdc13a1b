# Decorators stacked with @torch.compile the way evaluation code does it: @torch.no_grad() above
# or below @torch.compile, @torch.inference_mode(), and a module method marked
# @torch.compiler.disable that the compiled forward calls.
import torch
import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.history = []

    @torch.compiler.disable
    def record(self, logits):
        self.history.append(round(logits.abs().sum().item(), 3))

    def forward(self, x):
        logits = self.fc(x)
        self.record(logits)
        return logits.log_softmax(-1)


model = Scorer()
with torch.no_grad():
    model.fc.weight.copy_(torch.sin(torch.arange(12.0) * 1.7).view(3, 4))
    model.fc.bias.copy_(torch.tensor([0.1, 0.0, -0.1]))
x = torch.stack([torch.linspace(-1, 1, 4) * k + 0.3 * k for k in (0.5, 1.0, -2.0)])


@torch.no_grad()
@torch.compile
def evaluate_a(m, inp):
    return m(inp).argmax(-1), m(inp).exp().sum(-1)


@torch.compile
@torch.no_grad()
def evaluate_b(m, inp):
    return m(inp).max(-1)


@torch.inference_mode()
@torch.compile
def evaluate_c(m, inp):
    return m(inp)


pred, sums = evaluate_a(model, x)
print(pred, torch.round(sums, decimals=4), sums.requires_grad)
res = evaluate_b(model, x)
print(type(res).__name__, torch.round(res.values, decimals=4), res.indices, res.values.requires_grad)
out = evaluate_c(model, x)
print(torch.round(out, decimals=4), out.requires_grad, out.is_inference())
print("history", model.history)

cm = torch.compile(model)
y = cm(x)
print(y.requires_grad, y.grad_fn is not None)
y[:, 0].sum().backward()
print(torch.round(model.fc.weight.grad, decimals=4))
print("history", model.history[-1], len(model.history))
