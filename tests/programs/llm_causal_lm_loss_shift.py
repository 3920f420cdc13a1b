# The causal-LM loss as HF's ForCausalLMLoss computes it: shift logits/labels by one, ignore_index=-100
# for padding and prompt tokens, label smoothing, sum / num_items_in_batch reductions, the (N, C, T)
# layout, a z-loss with logsumexp, token accuracy and perplexity via loss.exp().
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

vocab = 5
logits = (torch.arange(2 * 4 * vocab, dtype=torch.float32).view(2, 4, vocab) * 0.37).sin() * 2
logits.requires_grad_(True)
input_ids = torch.tensor([[3, 1, 4, 1], [2, 0, 0, 0]])
attention_mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
labels = input_ids.masked_fill(attention_mask == 0, -100)
labels[:, 0] = -100  # pretend the first token is the prompt
print(labels)

shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
print(shift_logits.shape, shift_labels.shape, shift_labels.view(-1))
loss = F.cross_entropy(shift_logits.view(-1, vocab), shift_labels.view(-1), ignore_index=-100)
print(loss, loss.grad_fn.name(), "ppl", loss.exp(), math.exp(loss.item()))

# HF newer variant: pad labels on the right, then shift
padded = F.pad(labels, (0, 1), value=-100)
shift2 = padded[..., 1:]
print(padded, torch.equal(shift2[:, :-1], shift_labels))
num_items_in_batch = (shift_labels != -100).sum()
loss_sum = F.cross_entropy(logits.view(-1, vocab).float(), shift2.reshape(-1), ignore_index=-100, reduction="sum")
print(num_items_in_batch, loss_sum, loss_sum / num_items_in_batch)

per_token = F.cross_entropy(shift_logits.view(-1, vocab), shift_labels.view(-1), reduction="none")
print(per_token, per_token.shape)
mask = shift_labels.view(-1) != -100
print(per_token[mask].mean(), (per_token * mask).sum() / mask.sum())

# (N, C, T) layout gives the same result
print(F.cross_entropy(shift_logits.transpose(1, 2), shift_labels).sub(loss).abs() < 1e-6)
print(F.cross_entropy(shift_logits.permute(0, 2, 1), shift_labels, reduction="none"))

# label smoothing together with ignore_index
crit = nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=0.1)
print(crit, crit.ignore_index, crit.label_smoothing, crit.reduction)
ls_loss = crit(shift_logits.view(-1, vocab), shift_labels.view(-1))
print(ls_loss)
logp = shift_logits.view(-1, vocab).log_softmax(-1)[mask]
tgt = shift_labels.view(-1)[mask]
manual = (0.9 * F.nll_loss(logp, tgt) - 0.1 * logp.mean(-1).mean())
print(manual, torch.allclose(manual, ls_loss))
print(F.cross_entropy(shift_logits.view(-1, vocab), shift_labels.view(-1), label_smoothing=0.1, reduction="none"))

# z-loss and token accuracy
z_loss = 1e-4 * torch.logsumexp(shift_logits, dim=-1).pow(2)[shift_labels != -100].mean()
print(z_loss)
preds = shift_logits.argmax(-1)
correct = (preds == shift_labels) & (shift_labels != -100)
print(preds, correct.sum().item(), correct.sum() / (shift_labels != -100).sum())

(loss + z_loss).backward()
print(logits.grad[1])
print(logits.grad[0, -1].abs().sum(), logits.grad[1, 2:].abs().sum())

# all labels ignored: mean over zero tokens
empty = F.cross_entropy(torch.zeros(3, vocab), torch.full((3,), -100))
print(empty, F.cross_entropy(torch.zeros(3, vocab), torch.full((3,), -100), reduction="sum"))
print(F.cross_entropy(torch.zeros(2, vocab), torch.tensor([1, -100]), reduction="none"))
try:
    F.cross_entropy(shift_logits.view(-1, vocab), shift_labels.view(-1).float())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(shift_logits.view(-1, vocab), torch.tensor([0, 1, 2, 5, 0, 1]))
except IndexError as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(shift_logits, shift_labels)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits.view(-1, vocab), shift_labels.view(-1))
except ValueError as e:
    print(type(e).__name__, e)
