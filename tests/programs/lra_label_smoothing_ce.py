# SFT loss: shift logits/labels, mask the prompt with -100, label-smoothed cross entropy with
# ignore_index=-100, and the same computed by hand; reductions and per-token losses.
import torch
import torch.nn.functional as F

V = 7
logits = torch.sin(torch.arange(2 * 6 * V, dtype=torch.float32) * 0.37).view(2, 6, V) * 3
logits.requires_grad_(True)
input_ids = torch.tensor([[1, 5, 2, 6, 3, 0], [4, 4, 1, 2, 6, 5]])
labels = input_ids.clone()
labels[0, :2] = -100   # prompt
labels[0, 5] = -100    # padding
labels[1, :3] = -100

shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
flat_logits, flat_labels = shift_logits.view(-1, V), shift_labels.view(-1)
print(shift_labels)

for ls in (0.0, 0.1, 0.3):
    loss = F.cross_entropy(flat_logits, flat_labels, ignore_index=-100, label_smoothing=ls)
    print(ls, f"{loss.item():.5f}")


def smoothed_ce(logits, target, eps, ignore_index=-100):
    logp = F.log_softmax(logits, dim=-1)
    mask = target != ignore_index
    safe = target.masked_fill(~mask, 0)
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    smooth = -logp.mean(dim=-1)
    per_tok = (1 - eps) * nll + eps * smooth
    return (per_tok * mask).sum() / mask.sum(), per_tok * mask


ref, per_tok = smoothed_ce(flat_logits, flat_labels, 0.1)
print(f"{ref.item():.5f}", per_tok.view(2, 5).round(decimals=3))
per = F.cross_entropy(flat_logits, flat_labels, ignore_index=-100, label_smoothing=0.1, reduction="none")
print(per.view(2, 5).round(decimals=3))
print(f"{F.cross_entropy(flat_logits, flat_labels, label_smoothing=0.1, reduction='sum').item():.4f}")
print(torch.allclose(per.view(2, 5), per_tok.view(2, 5), atol=1e-5))

loss = F.cross_entropy(shift_logits.transpose(1, 2), shift_labels, label_smoothing=0.1)
print(f"{loss.item():.5f}")
loss.backward()
print(logits.grad[0, 0].round(decimals=4), logits.grad[0, 1].round(decimals=4))
print(logits.grad[0, 5].abs().sum())

crit = torch.nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=0.2, weight=torch.linspace(0.5, 2, V))
print(crit)
print(f"{crit(flat_logits, flat_labels).item():.5f}")
all_ignored = torch.full((3,), -100)
print(F.cross_entropy(flat_logits[:3], all_ignored, ignore_index=-100, label_smoothing=0.1))
# soft targets with label smoothing
probs = F.softmax(torch.arange(V, dtype=torch.float32), dim=0).expand(10, V)
print(f"{F.cross_entropy(flat_logits, probs, label_smoothing=0.1).item():.5f}")
try:
    F.cross_entropy(flat_logits, flat_labels, label_smoothing=1.5)
except Exception as e:
    print(type(e).__name__, e)
