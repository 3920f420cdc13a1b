# Two pieces of LLM fine-tuning code written from scratch: (1) sequence packing — documents
# concatenated with a BOS separator, document ids by cumsum, per-document position ids, a
# block-diagonal causal mask; (2) DPO — per-token log-probs by gather on log_softmax with a -100
# loss mask, summed sequence log-probs, and the sigmoid DPO loss with its implicit rewards.
import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

BOS = 0
docs = [torch.tensor([5, 6, 7]), torch.tensor([8, 9]), torch.tensor([4, 3, 2, 1])]
packed = torch.cat([torch.cat([torch.tensor([BOS]), d]) for d in docs])
print(packed, packed.numel())
is_bos = packed == BOS
doc_ids = torch.cumsum(is_bos.long(), dim=0) - 1
starts = torch.nonzero(is_bos).squeeze(-1)
position_ids = torch.arange(packed.numel()) - starts[doc_ids]
print(doc_ids, starts, position_ids)
lengths = torch.tensor([len(d) + 1 for d in docs])
cu_seqlens = F.pad(torch.cumsum(lengths, dim=0, dtype=torch.int32), (1, 0))
print(cu_seqlens, cu_seqlens.dtype, torch.repeat_interleave(torch.arange(3), lengths).equal(doc_ids))

same_doc = doc_ids[:, None] == doc_ids[None, :]
causal = torch.ones(packed.numel(), packed.numel(), dtype=torch.bool).tril()
block_mask = same_doc & causal
print(block_mask.int()[:6, :6])
print(block_mask.sum(-1), block_mask.sum())
additive = torch.zeros(block_mask.shape).masked_fill(~block_mask, torch.finfo(torch.float32).min)
print(additive[4, :6])

labels = packed.clone()
labels[is_bos] = -100
shifted = torch.cat([labels[1:], torch.tensor([-100])])
shifted[(starts - 1)[1:]] = -100
print(shifted)
blocks = packed[: (packed.numel() // 4) * 4].view(-1, 4)
print(blocks, packed.unfold(0, 4, 4).equal(blocks))

# padding instead of packing
batch = pad_sequence(docs, batch_first=True, padding_value=-100)
attention_mask = (batch != -100).long()
print(batch, attention_mask.sum(1))
print(pad_sequence(docs, batch_first=True, padding_value=BOS, padding_side="left"))

# ---- DPO ----
vocab = 6


def get_batch_logps(logits, labels):
    labels = labels[:, 1:].clone()
    logits = logits[:, :-1, :]
    loss_mask = labels != -100
    labels[labels == -100] = 0
    per_token_logps = torch.gather(logits.log_softmax(-1), dim=2, index=labels.unsqueeze(2)).squeeze(2)
    return (per_token_logps * loss_mask).sum(-1), loss_mask.sum(-1)


policy_logits = (torch.arange(2 * 2 * 4 * vocab, dtype=torch.float32).view(4, 4, vocab) * 0.41).cos().requires_grad_(True)
ref_logits = (torch.arange(2 * 2 * 4 * vocab, dtype=torch.float32).view(4, 4, vocab) * 0.43).cos()
labels = torch.tensor([[-100, -100, 3, 1], [-100, 2, 2, -100], [-100, -100, 5, 0], [-100, 4, 1, -100]])
pol_logps, n_tokens = get_batch_logps(policy_logits, labels)
ref_logps, _ = get_batch_logps(ref_logits, labels)
print(pol_logps, n_tokens, pol_logps.grad_fn.name())
chosen, rejected = pol_logps[:2], pol_logps[2:]
ref_chosen, ref_rejected = ref_logps[:2], ref_logps[2:]
beta = 0.1
logits = (chosen - rejected) - (ref_chosen - ref_rejected)
losses = -F.logsigmoid(beta * logits)
chosen_rewards = beta * (chosen - ref_chosen).detach()
rejected_rewards = beta * (rejected - ref_rejected).detach()
print(losses, losses.mean())
print(chosen_rewards, rejected_rewards, (chosen_rewards > rejected_rewards).float().mean())
ipo = (logits - 1 / (2 * beta)) ** 2
hinge = torch.relu(1 - beta * logits)
smoothed = -F.logsigmoid(beta * logits) * 0.9 - F.logsigmoid(-beta * logits) * 0.1
print(ipo, hinge, smoothed)
losses.mean().backward()
print(policy_logits.grad[0], policy_logits.grad[:, 0].abs().sum())
print(F.logsigmoid(torch.tensor([-30.0, 0.0, 30.0])), torch.sigmoid(torch.tensor([-30.0, 30.0])))
try:
    torch.gather(policy_logits.log_softmax(-1), 2, labels[:, 1:].unsqueeze(2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    shifted[starts] = torch.tensor([1, 2])
except RuntimeError as e:
    print(type(e).__name__, e)
