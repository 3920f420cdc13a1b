# StackOverflow: no_grad vs inference_mode vs eval(), "Inference tensors cannot be saved for
# backward", set_grad_enabled, and which flags each one actually changes.
import torch
import torch.nn as nn


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.BatchNorm1d(2))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, 0.5], [-0.5, 1.0]]))
    model[0].bias.zero_()
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0]])

model.eval()
print("eval():", model.training, [m.training for m in model])
out = model(x)
print("eval() output still tracks grad:", out.requires_grad, out.grad_fn.name())
with torch.no_grad():
    out = model(x)
print("no_grad:", out.requires_grad, out.grad_fn, out.is_leaf, torch.is_grad_enabled())
with torch.inference_mode():
    out_inf = model(x)
    print("inference_mode:", out_inf.requires_grad, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print("is_inference:", out_inf.is_inference(), out.is_inference())
print(out_inf)

w = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("inference tensor in autograd", lambda: (w * out_inf[0]).sum().backward())
attempt("clone fix", lambda: (w * out_inf[0].clone()).sum().backward())
print(w.grad)
attempt("inference tensor in-place", lambda: out_inf.add_(1))
attempt("inference requires_grad_", lambda: out_inf.requires_grad_())

# set_grad_enabled as a switch between train and eval code paths
for train in (True, False):
    with torch.set_grad_enabled(train):
        y = (w * 3).sum()
    print("set_grad_enabled", train, y.requires_grad)

@torch.no_grad()
def predict(inp):
    return model(inp)

p = predict(x)
print("decorated:", p.requires_grad, torch.is_grad_enabled())

# Nested: enable_grad inside no_grad
with torch.no_grad():
    with torch.enable_grad():
        z = w * 2
    z2 = w * 2
print("enable_grad inside no_grad:", z.requires_grad, z2.requires_grad)

# A tensor created under no_grad with requires_grad=True is still a leaf that requires grad
with torch.no_grad():
    leaf = torch.ones(2, requires_grad=True)
    derived = leaf * 2
print(leaf.requires_grad, derived.requires_grad)
attempt("backward through no_grad result", lambda: derived.sum().backward())

# Model in eval mode but still accumulating grads
model.eval()
model.zero_grad()
model(x).sum().backward()
print("grads in eval mode:", model[0].weight.grad)
model.train()
print("train():", [m.training for m in model])
print(model(x).shape)
