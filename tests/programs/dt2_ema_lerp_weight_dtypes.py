# EMA of model weights written with lerp_ (as in timm's ModelEmaV3 / diffusers' EMAModel):
# the decay comes from a schedule as a float64 0-d tensor or a Python float, parameters may be
# float16 copies; plus the dtype rules lerp enforces (end must match, 0-d weights promote).
import torch
import torch.nn as nn

torch.set_printoptions(precision=5)
model = nn.Linear(3, 2)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
ema = [p.detach().clone() for p in model.parameters()]
ema_half = [p.detach().clone().half() for p in model.parameters()]

def decay_at(step, base=0.999, warmup=10):
    # float64 0-d tensor, as produced by a schedule computed in double
    return torch.tensor(min(base, (1 + step) / (warmup + step)), dtype=torch.float64)

for step in range(12):
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.cos(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) + step) * 0.1)
        d = decay_at(step)
        for e, eh, p in zip(ema, ema_half, model.parameters()):
            e.lerp_(p, 1 - d)                 # 0-d double weight on float32 tensors
            eh.lerp_(p.half(), float(1 - d))  # Python float weight on float16 tensors
    if step % 4 == 3:
        print(f"step {step} decay={d.item():.4f} ema_w={ema[0][0].tolist()} half={ema_half[0][0].tolist()}")

print("ema dtypes", [e.dtype for e in ema], [e.dtype for e in ema_half])
w = model.weight.detach()
print("lerp 0-d f64 weight", torch.lerp(ema[0], w, torch.tensor(0.5, dtype=torch.float64)).dtype)
print("lerp 0-d int weight", torch.lerp(ema[0], w, torch.tensor(1)))
print("lerp 0-d complex weight", torch.lerp(ema[1], model.bias.detach(), torch.tensor(0.5 + 0.5j)))
print("all 0-d", torch.lerp(torch.tensor(0.0), torch.tensor(1.0), torch.tensor(0.3, dtype=torch.float64)))
for what, fn in [("1-d f64 weight", lambda: torch.lerp(ema[1], model.bias.detach(), torch.full((2,), 0.5, dtype=torch.float64))),
                 ("end f64", lambda: torch.lerp(ema[1], model.bias.detach().double(), 0.5)),
                 ("end half", lambda: ema_half[1].lerp(model.bias.detach(), 0.5)),
                 ("int start", lambda: torch.lerp(torch.tensor([0, 10]), torch.tensor([10, 20]), 0.5)),
                 ("in-place complex weight", lambda: ema[1].clone().lerp_(model.bias.detach(), torch.tensor(0.5j)))]:
    try:
        print(what, fn())
    except Exception as e:
        print(what, type(e).__name__, e)

# gradients through lerp with a learnable 0-d mixing weight in double
alpha = torch.tensor(0.25, dtype=torch.float64, requires_grad=True)
x = torch.linspace(0, 1, 4, requires_grad=True)
y = torch.lerp(x, torch.ones(4), alpha)
y.pow(2).sum().backward()
print("y", y, "alpha.grad", alpha.grad, alpha.grad.dtype, "x.grad", x.grad)
z = torch.tensor([1 + 1j, 2 - 1j])
print("complex lerp", torch.lerp(z, z * 1j, 0.25), torch.lerp(z, torch.zeros(2, dtype=torch.complex64), torch.tensor([0.5, 1.0 + 0j])))
print("fmax ties", torch.fmax(torch.zeros(18), -torch.zeros(18)).signbit().any().item(),
      torch.fmin(-torch.zeros(18), torch.zeros(18)).signbit().all().item())
