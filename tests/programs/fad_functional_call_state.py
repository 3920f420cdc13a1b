# Treating a module as a function of its state dict (torch.func.functional_call), as in
# hypernetwork / meta-learning code: partial parameter dicts, (params, buffers) tuples, strict=True,
# tie_weights, kwargs, stack_module_state requirements, and the error messages for each misuse.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, stack_module_state, vmap

torch.set_default_dtype(torch.float64)


class TiedAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 2, bias=False)
        self.dec = nn.Linear(2, 4, bias=False)
        self.dec.weight = nn.Parameter(torch.zeros(4, 2))
        self.register_buffer("shift", torch.zeros(4))

    def forward(self, x, *, temperature=1.0):
        return self.dec(torch.tanh(self.enc(x - self.shift) / temperature)) + self.shift


model = TiedAE()
with torch.no_grad():
    model.enc.weight.copy_(torch.arange(8.0).view(2, 4) / 8 - 0.4)
    model.dec.weight.copy_(torch.arange(8.0).view(4, 2) / 10)
x = torch.linspace(-1, 1, 8).view(2, 4)
print(sorted(dict(model.named_parameters())))

out_default = model(x)
new_enc = {"enc.weight": torch.ones(2, 4) * 0.1}
out_partial = functional_call(model, new_enc, (x,))
print("partial dict keeps other params:", torch.allclose(out_partial, model.dec(torch.tanh(0.1 * x.sum(1, keepdim=True).expand(2, 2)))))
print("module untouched afterwards:", torch.allclose(model(x), out_default))
out_kw = functional_call(model, ({}, {"shift": torch.full((4,), 0.5)}), (x,), {"temperature": 2.0})
print("buffers + kwargs:", out_kw)

try:
    functional_call(model, new_enc, (x,), strict=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    functional_call(model, {"enc.weight": torch.ones(2, 4), "bogus": torch.ones(1)}, (x,), strict=True)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    functional_call(model, ({"shift": torch.ones(4)}, {"shift": torch.zeros(4)}), (x,))
except Exception as e:
    print(type(e).__name__, e)

# tied weights: replacing enc.weight also replaces dec.weight when tied (default) or not
tied = TiedAE()
tied.dec.weight = nn.Parameter(tied.enc.weight.detach().T.clone())
with torch.no_grad():
    tied.enc.weight.copy_(torch.arange(8.0).view(2, 4) / 8 - 0.4)
tied.dec.weight = tied.enc.weight  # not a transpose any more, but shares the tensor
print("shared parameters listed once:", len(list(tied.parameters())), sorted(dict(tied.named_parameters())))
try:
    o1 = functional_call(tied, {"enc.weight": torch.ones(2, 4)}, (x[:, :2] @ torch.ones(2, 4),))
    print("tie_weights=True output shape", tuple(o1.shape))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

# gradient of a reconstruction loss with respect to a dict of parameters
params = {k: v.detach() for k, v in model.named_parameters()}
g = grad(lambda p: ((functional_call(model, p, (x,)) - x) ** 2).mean())(params)
print({k: tuple(v.shape) for k, v in g.items()})
print("d loss / d enc.weight\n", g["enc.weight"])

# stacking: requirements checked by stack_module_state
a, b = TiedAE(), TiedAE()
for m, s in ((a, 0.1), (b, -0.1)):
    with torch.no_grad():
        for p in m.parameters():
            p.fill_(s)
p_stack, b_stack = stack_module_state([a, b])
print({k: tuple(v.shape) for k, v in p_stack.items()}, {k: tuple(v.shape) for k, v in b_stack.items()})
ens = vmap(lambda p, bf, inp: functional_call(a, (p, bf), (inp,)), in_dims=(0, 0, None))(p_stack, b_stack, x)
print("ensemble outputs", tuple(ens.shape), ens[:, 0, 0])
b.enc.weight.requires_grad_(False)
try:
    stack_module_state([a, b])
except Exception as e:
    print(type(e).__name__, e)
try:
    stack_module_state([])
except Exception as e:
    print(type(e).__name__, e)
try:
    stack_module_state([a, nn.Linear(2, 2)])
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
