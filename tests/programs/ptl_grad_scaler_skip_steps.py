# Mixed-precision optimizer step logic from a hand-written Trainer, run with an enabled CPU
# torch.amp.GradScaler on float32: scaled backward, unscale_ before clipping, steps skipped on inf
# grads with scale backoff, growth after growth_interval clean steps, and checkpointing its state.
import io

import torch
import torch.nn as nn

model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25, 0.125]]))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
scaler = torch.amp.GradScaler("cpu", init_scale=256.0, growth_factor=2.0, backoff_factor=0.25,
                              growth_interval=2)
x = torch.stack([torch.linspace(-1, 1, 6), torch.linspace(0, 1, 6) ** 2, torch.cos(torch.arange(6.0))], 1)
y = (x[:, 0] - 2 * x[:, 2]).unsqueeze(1)

for step in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    scaled = scaler.scale(loss)
    scaled.backward()
    if step in (2, 5):  # simulate an fp16 overflow in one gradient
        model.bias.grad.fill_(float("inf"))
    grad_before = model.weight.grad.abs().max().item()
    scaler.unscale_(opt)
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    w_before = model.weight.detach().clone()
    ret = scaler.step(opt)
    scaler.update()
    print(f"step {step}: loss {loss.item():.4f} scaled {scaled.item():.2f} raw-grad {grad_before:.2f} "
          f"gnorm {gnorm.item():.4f} stepped {not torch.equal(w_before, model.weight.detach())} "
          f"ret {ret} scale {scaler.get_scale()}")

state = scaler.state_dict()
print("state:", state)
buf = io.BytesIO()
torch.save({"scaler": state, "opt": opt.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf)
new_scaler = torch.amp.GradScaler("cpu")
new_scaler.load_state_dict(ck["scaler"])
print("restored scale:", new_scaler.get_scale(), new_scaler.get_growth_interval(), new_scaler.state_dict()["_growth_tracker"])

opt.zero_grad()
scaler.scale(nn.functional.mse_loss(model(x), y)).backward()
scaler.unscale_(opt)
try:
    scaler.unscale_(opt)
except RuntimeError as e:
    print(type(e).__name__, e)
scaler.step(opt)
try:
    scaler.step(opt)
except RuntimeError as e:
    print(type(e).__name__, e)
scaler.update()
scaler.update(new_scale=64.0)
print("manual new scale:", scaler.get_scale())
try:
    scaler.update(new_scale=torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
print("scaled list:", scaler.scale([torch.tensor(1.0), (torch.tensor(0.5), torch.tensor(2.0))]))
try:
    torch.amp.GradScaler("cpu").load_state_dict({})
except RuntimeError as e:
    print(type(e).__name__, e)

# non-power-of-two settings, as in some configs: the scale is kept in float32
odd = torch.amp.GradScaler("cpu", init_scale=1000.0, growth_factor=1.1, backoff_factor=0.3, growth_interval=1)
print("before first scale:", odd.get_scale())
w = nn.Parameter(torch.tensor([1.0, -1.0]))
wopt = torch.optim.SGD([w], lr=0.1)
for overflow in (False, True, False):
    wopt.zero_grad()
    out = odd.scale((w * 0.1).sum())
    out.backward()
    if overflow:
        w.grad[1] = float("nan")
    odd.step(wopt)
    odd.update()
    print(f"  scaled={out.item()} grad={w.grad.tolist()} scale={odd.get_scale()}")
print("odd state:", odd.state_dict())
print("scaled float64:", odd.scale(torch.tensor(0.5, dtype=torch.float64)).item())
print("scaled generator:", type(odd.scale(t for t in [torch.tensor(1.0)])).__name__)
try:
    odd.scale(2.0)
except ValueError as e:
    print(type(e).__name__, e)
half = nn.Parameter(torch.ones(2, dtype=torch.float16))
hopt = torch.optim.SGD([half], lr=0.1)
odd.scale(half.float().sum()).backward()
try:
    odd.unscale_(hopt)
except ValueError as e:
    print(type(e).__name__, e, half.grad)
fresh = torch.amp.GradScaler("cpu")
try:
    fresh.step(wopt)
except AssertionError as e:
    print(type(e).__name__, e)
