# Training-loop utilities: parameter groups without weight decay for biases and norm layers,
# gradient-norm logging (clip_grad_norm_ return value, per-parameter norms stacked).
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)
        self.head = nn.Linear(4, 2, bias=False)
        self.pos = nn.Parameter(torch.zeros(1, 4))

    def forward(self, x):
        return self.head(self.norm(torch.relu(self.fc(x)) + self.pos))


model = Block()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (0.5 + 0.1 * i))


def param_groups_weight_decay(model, weight_decay=1e-5, no_weight_decay_list=()):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if param.ndim <= 1 or name.endswith(".bias") or name in no_weight_decay_list:
            no_decay.append(param)
        else:
            decay.append(param)
    return [{"params": no_decay, "weight_decay": 0.}, {"params": decay, "weight_decay": weight_decay}]


groups = param_groups_weight_decay(model, 0.05, no_weight_decay_list={"pos"})
print([len(g["params"]) for g in groups], [g["weight_decay"] for g in groups])
print([(n, tuple(p.shape)) for n, p in model.named_parameters()])
opt = torch.optim.AdamW(groups, lr=1e-2)
print([sorted(k for k in g if k != "params") for g in opt.param_groups][0])
print(opt.param_groups[0]["weight_decay"], opt.param_groups[1]["weight_decay"], opt.defaults["weight_decay"])

x = torch.linspace(-2, 2, 24).view(6, 4)
y = torch.tensor([0, 1, 1, 0, 1, 0])
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
norms = [p.grad.norm(2) for p in model.parameters() if p.grad is not None]
print(torch.stack(norms))
total = torch.norm(torch.stack(norms), 2)
print(total, total.requires_grad)
grads = {n: round(p.grad.norm().item(), 4) for n, p in model.named_parameters()}
print(grads)
ret = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
print(ret, torch.allclose(ret, total), ret.dtype)
after = torch.stack([p.grad.detach().norm() for p in model.parameters()]).norm()
print(round(after.item(), 4))
inf_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type="inf")
print(inf_norm, max(p.grad.abs().max() for p in model.parameters()))
print(torch.nn.utils.clip_grad_norm_([], 1.0))
v = torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(v, model.head.weight.grad)
print(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]))
model.fc.weight.grad = None
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, foreach=False))
opt.step()
print(opt.state[model.fc.weight] if model.fc.weight in opt.state else "no state for fc.weight")
print(sorted(opt.state[model.head.weight].keys()), opt.state[model.head.weight]["step"])
opt.zero_grad(set_to_none=True)
print(model.fc.bias.grad, len(opt.state))
