# DINO projection head as in the official repo: nn.utils.weight_norm last layer with weight_g filled
# with 1 and frozen, F.normalize before it, get_params_groups (no weight decay on biases / norms),
# per-parameter clip_gradients returning the norms, and cancel_gradients_last_layer (p.grad = None).
import torch
import torch.nn as nn
import torch.nn.functional as F


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim, hidden_dim=8, bottleneck_dim=4, norm_last_layer=True):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden_dim), nn.GELU(), nn.Linear(hidden_dim, bottleneck_dim))
        self.last_layer = nn.utils.weight_norm(nn.Linear(bottleneck_dim, out_dim, bias=False))
        self.last_layer.weight_g.data.fill_(1)
        if norm_last_layer:
            self.last_layer.weight_g.requires_grad = False

    def forward(self, x):
        x = self.mlp(x)
        x = nn.functional.normalize(x, dim=-1, p=2)
        return self.last_layer(x)


def get_params_groups(model):
    regularized, not_regularized = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if name.endswith(".bias") or len(param.shape) == 1:
            not_regularized.append(param)
        else:
            regularized.append(param)
    return [{"params": regularized}, {"params": not_regularized, "weight_decay": 0.0}]


def clip_gradients(model, clip):
    norms = []
    for name, p in model.named_parameters():
        if p.grad is not None:
            param_norm = p.grad.data.norm(2)
            norms.append(param_norm.item())
            clip_coef = clip / (param_norm + 1e-6)
            if clip_coef < 1:
                p.grad.data.mul_(clip_coef)
    return norms


def cancel_gradients_last_layer(epoch, model, freeze_last_layer):
    if epoch >= freeze_last_layer:
        return
    for n, p in model.named_parameters():
        if "last_layer" in n:
            p.grad = None


head = DINOHead(5, 7)
with torch.no_grad():
    for i, (n, p) in enumerate(head.named_parameters()):
        if n != "last_layer.weight_g":
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view_as(p) * 0.5)
print([(n, tuple(p.shape), p.requires_grad) for n, p in head.named_parameters()])
groups = get_params_groups(head)
print([len(g["params"]) for g in groups])
opt = torch.optim.AdamW(groups, lr=0.05, weight_decay=0.04)
print([g["weight_decay"] for g in opt.param_groups])

x = torch.cos(torch.arange(4 * 5, dtype=torch.float32) * 0.6).view(4, 5)
target = torch.softmax(torch.sin(torch.arange(4 * 7, dtype=torch.float32)).view(4, 7) / 0.1, dim=-1)
for epoch in range(4):
    out = head(x)
    loss = torch.sum(-target * F.log_softmax(out / 0.1, dim=-1), dim=-1).mean()
    opt.zero_grad()
    loss.backward()
    norms = clip_gradients(head, 0.8)
    cancel_gradients_last_layer(epoch, head, freeze_last_layer=2)
    opt.step()
    print(epoch, f"{loss.item():.4f}", [f"{v:.3f}" for v in norms], head.last_layer.weight_v.grad is None)

print("weight_g", head.last_layer.weight_g.view(-1))
w = head.last_layer.weight
print("row norms", w.norm(dim=1).detach().round(decimals=4), type(w.grad_fn).__name__ if w.grad_fn else None)
print(sorted(head.state_dict().keys()))
