# A tiny decoder-only LM trained the way from-scratch LLM repos do it: tied embeddings, apply(_init_weights),
# decay / no_decay groups by p.dim() >= 2, AdamW(betas=(0.9, 0.95)), LambdaLR linear warmup + cosine,
# gradient accumulation with loss / accum_steps, clip_grad_norm_ return value, perplexity logging.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.RMSNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(dim, dim)

    def forward(self, x):
        a, b = self.fc1(self.norm(x)).chunk(2, dim=-1)
        return x + self.fc2(F.silu(a) * b)


class TinyLM(nn.Module):
    def __init__(self, vocab=7, dim=6, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim) for _ in range(n_layers))
        self.norm_f = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.embed.weight  # weight tying
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            w = module.weight
            with torch.no_grad():
                w.copy_(0.1 * torch.cos(torch.arange(w.numel(), dtype=torch.float32) * 0.9).view_as(w))
            if getattr(module, "bias", None) is not None:
                nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        x = self.embed(idx)
        for layer in self.layers:
            x = layer(x)
        logits = self.lm_head(self.norm_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-100)
        return logits, loss


model = TinyLM()
print(model.lm_head.weight is model.embed.weight, model.lm_head.weight.data_ptr() == model.embed.weight.data_ptr())
print(len(list(model.parameters())), len(list(model.named_parameters())), len(model.state_dict()))
print(sum(p.numel() for p in model.parameters()), sum(p.numel() for p in model.parameters() if p.requires_grad))
print([k for k in model.state_dict() if "weight" in k and "layers" not in k])
print(list(dict(model.named_parameters(remove_duplicate=False)).keys())[-2:])

param_dict = {pn: p for pn, p in model.named_parameters() if p.requires_grad}
decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
print(f"num decayed parameter tensors: {len(decay_params)}, with {sum(p.numel() for p in decay_params):,} parameters")
print(f"num non-decayed parameter tensors: {len(nodecay_params)}, with {sum(p.numel() for p in nodecay_params):,} parameters")
optimizer = torch.optim.AdamW([{"params": decay_params, "weight_decay": 0.1},
                               {"params": nodecay_params, "weight_decay": 0.0}],
                              lr=3e-3, betas=(0.9, 0.95), eps=1e-8)
print(optimizer)

warmup, total = 2, 8


def lr_lambda(step):
    if step < warmup:
        return float(step + 1) / float(max(1, warmup))
    progress = float(step - warmup) / float(max(1, total - warmup))
    return max(0.0, 0.5 * (1.0 + math.cos(math.pi * progress)))


scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
print(scheduler.get_last_lr(), [g["lr"] for g in optimizer.param_groups], [g["initial_lr"] for g in optimizer.param_groups])

data = torch.tensor([[0, 1, 2, 3, 4, 5, 6, 0, 1], [3, 3, 2, 2, 1, 1, 0, 0, 6]])
accum_steps = 2
for step in range(5):
    optimizer.zero_grad(set_to_none=True)
    loss_accum = 0.0
    for micro in range(accum_steps):
        x, y = data[micro:micro + 1, :-1], data[micro:micro + 1, 1:].clone()
        y[:, :2] = -100
        _, loss = model(x, y)
        loss = loss / accum_steps
        loss_accum += loss.detach()
        loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    lr = scheduler.get_last_lr()[0]
    optimizer.step()
    scheduler.step()
    print(f"step {step} | loss {loss_accum.item():.6f} | ppl {math.exp(loss_accum.item()):.4f} | lr {lr:.4e} | norm {norm:.4f}")
print(type(norm).__name__, norm.dtype, norm.shape, norm.requires_grad)
print(type(loss_accum).__name__, loss_accum.requires_grad)

state = optimizer.state[model.embed.weight]
print(sorted(state.keys()), state["step"], state["exp_avg"].shape)
print(model.embed.weight[0], model.layers[0].fc1.bias[:4])
print(optimizer.state_dict()["param_groups"][1]["params"], optimizer.state_dict()["param_groups"][0]["lr"])
print(scheduler.state_dict()["last_epoch"], scheduler.state_dict()["_last_lr"])

# eval: loss and perplexity, no grad
model.eval()
with torch.no_grad():
    logits, loss = model(data[:, :-1], data[:, 1:].contiguous())
print(logits.shape, loss, loss.exp(), loss.requires_grad)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=2.0))
print(torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None]))
try:
    torch.optim.AdamW(model.parameters(), lr=-1.0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.optim.AdamW([{"params": decay_params}, {"params": decay_params[:1]}])
except ValueError as e:
    print(type(e).__name__, e)
