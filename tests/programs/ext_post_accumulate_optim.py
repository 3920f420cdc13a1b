# "Optimizer step in backward" (PyTorch tutorial): Tensor.register_post_accumulate_grad_hook
# runs a per-parameter optimizer as soon as its gradient is accumulated, freeing grads early.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape) * 0.5)

optimizer_dict = {p: torch.optim.SGD([p], lr=0.05, momentum=0.9) for p in model.parameters()}
order = []


def optimizer_hook(parameter) -> None:
    order.append(tuple(parameter.shape))
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


handles = [p.register_post_accumulate_grad_hook(optimizer_hook) for p in model.parameters()]

x = torch.linspace(-1, 1, 15).reshape(5, 3)
y = (x.sum(dim=1, keepdim=True) * 0.7).sin()
for step in range(12):
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.5f}")
    if step == 0:
        print("hook order:", order)
print("grads freed:", [p.grad for p in model.parameters()])

# the hook gets the parameter itself, after .grad is accumulated (grad already summed)
t = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
t.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(t * 3).sum().backward()
(t * 3).sum().backward()
print(seen)

# non-leaf tensors cannot have this hook
nl = t * 2
try:
    nl.register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print(type(e).__name__, e)

for h in handles:
    h.remove()
before = [p.detach().clone() for p in model.parameters()]
((model(x) - y) ** 2).mean().backward()
print("after remove grads kept:", all(p.grad is not None for p in model.parameters()))
print("params unchanged:", all(torch.equal(a, p) for a, p in zip(before, model.parameters())))
