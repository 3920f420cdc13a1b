# DataCollatorWithFlattening-style packing: several examples concatenated into one row, position_ids
# restarting per example, a block-diagonal causal mask built from cu_seqlens, labels with -100 at
# boundaries, and the newer loss normalisation sum(ce)/num_items_in_batch across grad-accum steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


def pack(examples):
    input_ids = torch.cat([torch.tensor(e) for e in examples])
    position_ids = torch.cat([torch.arange(len(e)) for e in examples])
    labels = input_ids.clone()
    starts = torch.tensor([0] + [len(e) for e in examples[:-1]]).cumsum(0)
    labels[starts] = -100
    return input_ids[None], position_ids[None], labels[None]


def cu_seqlens_from_position_ids(position_ids):
    starts = (position_ids[0] == 0).nonzero().flatten()
    total = torch.tensor([position_ids.shape[1]])
    return torch.cat([starts, total]).to(torch.int32)


def block_causal_mask(cu_seqlens, dtype):
    lengths = cu_seqlens[1:] - cu_seqlens[:-1]
    seq_id = torch.repeat_interleave(torch.arange(len(lengths)), lengths.long())
    same = seq_id[:, None] == seq_id[None, :]
    allowed = same & torch.tril(torch.ones_like(same))
    mask = torch.zeros(allowed.shape, dtype=dtype).masked_fill(~allowed, torch.finfo(dtype).min)
    return mask[None, None]


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=16, d=8, max_pos=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_pos, d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, position_ids, attention_mask):
        h = self.wte(input_ids) + self.wpe(position_ids)
        q, k, v = self.qkv(h).unsqueeze(1).chunk(3, dim=-1)
        w = (q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5 + attention_mask
        h = h + self.o((w.softmax(-1) @ v).squeeze(1))
        return self.head(h)


examples = [[3, 5, 7, 9], [2, 4, 6], [1, 8, 10, 12, 14]]
input_ids, position_ids, labels = pack(examples)
print(input_ids, position_ids, labels, sep="\n")
cu = cu_seqlens_from_position_ids(position_ids)
print("cu_seqlens:", cu, "max_seqlen:", int((cu[1:] - cu[:-1]).max()))
mask = block_causal_mask(cu, torch.float32)
print((mask[0, 0] == 0).to(torch.uint8))

model = TinyCausalLM()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + 2 * i).view_as(p) * 0.5)

logits = model(input_ids, position_ids, mask)
# packed result must equal running each example alone
alone = []
for e in examples:
    ids = torch.tensor([e])
    pos = torch.arange(len(e))[None]
    m = block_causal_mask(torch.tensor([0, len(e)], dtype=torch.int32), torch.float32)
    alone.append(model(ids, pos, m))
print("packed == separate:", torch.allclose(logits, torch.cat(alone, dim=1), atol=1e-5))

shift_logits = logits[:, :-1].reshape(-1, logits.shape[-1])
shift_labels = F.pad(labels, (0, 1), value=-100)[:, 1:]
shift_labels = labels[:, 1:].reshape(-1)
num_items_in_batch = (shift_labels != -100).sum()
loss_sum = F.cross_entropy(shift_logits, shift_labels, ignore_index=-100, reduction="sum")
loss = loss_sum / num_items_in_batch
mean_loss = F.cross_entropy(shift_logits, shift_labels, ignore_index=-100)
print("num_items:", num_items_in_batch.item(), f"{loss.item():.5f}", torch.isclose(loss, mean_loss).item())
per_tok = F.cross_entropy(shift_logits, shift_labels, ignore_index=-100, reduction="none")
print(torch.round(per_tok, decimals=3))

opt = torch.optim.AdamW(model.parameters(), lr=0.05)
micro_batches = [examples[:2], examples[2:]]
total_items = sum(len(e) - 1 for e in examples)
for step in range(5):
    opt.zero_grad()
    logged = 0.0
    for mb in micro_batches:
        ids, pos, lab = pack(mb)
        out = model(ids, pos, block_causal_mask(cu_seqlens_from_position_ids(pos), torch.float32))
        l = F.cross_entropy(out[:, :-1].flatten(0, 1), lab[:, 1:].flatten(), ignore_index=-100, reduction="sum") / total_items
        l.backward()
        logged += l.item()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(step, f"loss={logged:.4f}", f"grad_norm={gn.item():.4f}")
