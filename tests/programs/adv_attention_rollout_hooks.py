# Attention maps for interpretability: forward hooks on nn.MultiheadAttention inside a
# TransformerEncoderLayer (forcing need_weights via a forward pre-hook with kwargs), attention
# rollout across layers, and gradient-weighted attention via a tensor hook on the weights.
import torch
import torch.nn as nn

torch.set_printoptions(precision=3)

d_model, heads, seq = 8, 2, 5
encoder = nn.TransformerEncoder(
    nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=16, dropout=0.0, batch_first=True),
    num_layers=2, enable_nested_tensor=False)
with torch.no_grad():
    for i, (name, p) in enumerate(encoder.named_parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.3)
encoder.eval()
head = nn.Linear(d_model, 2)
with torch.no_grad():
    head.weight.copy_(torch.cos(torch.arange(16.0)).view(2, 8))
    head.bias.zero_()

x = torch.stack([torch.sin(torch.arange(d_model) * (k + 1) * 0.5) for k in range(seq)]).unsqueeze(0)

attn_maps, handles = [], []


def force_weights(module, args, kwargs):
    kwargs["need_weights"] = True
    kwargs["average_attn_weights"] = False
    return args, kwargs


def save_attn(module, args, output):
    out, weights = output
    weights.retain_grad()
    attn_maps.append(weights)


for layer in encoder.layers:
    handles.append(layer.self_attn.register_forward_pre_hook(force_weights, with_kwargs=True))
    handles.append(layer.self_attn.register_forward_hook(save_attn))

xr = x.clone().requires_grad_()
feats = encoder(xr)
logits = head(feats[:, 0])
print("logits", logits.detach())
print(len(attn_maps), [tuple(a.shape) for a in attn_maps])
print(torch.allclose(attn_maps[0].sum(-1), torch.ones(1, heads, seq)))
print(attn_maps[0][0, 0])

# attention rollout: average heads, add identity, renormalise, multiply through layers
rollout = torch.eye(seq)
for a in attn_maps:
    a = a.detach().mean(dim=1)[0]
    a = a + torch.eye(seq)
    a = a / a.sum(dim=-1, keepdim=True)
    rollout = a @ rollout
print("rollout row 0", rollout[0])

# gradient-weighted attention (Chefer et al. style)
logits[0, logits.argmax()].backward()
# the returned weights are a reshaped copy, not the tensor used in the forward: no grad reaches them
print([a.grad is None for a in attn_maps], attn_maps[0].grad_fn is not None)
print("input saliency", xr.grad.abs().sum(-1))
for h in handles:
    h.remove()
attn_maps.clear()
encoder(x)
print(len(attn_maps), [len(l.self_attn._forward_pre_hooks) for l in encoder.layers])

# direct call with need_weights and average_attn_weights defaults
mha = encoder.layers[0].self_attn
out, w = mha(x, x, x)
print(out.shape, w.shape, torch.allclose(w, w.sum(-1, keepdim=True) * 0 + w))
out, w = mha(x, x, x, need_weights=False)
print(w)
