# pytorch_utils.prune_linear_layer / find_pruneable_heads_and_indices as used by BertSelfAttention
# .prune_heads, plus get_head_mask broadcasting a (layers, heads) mask to 5-D and multiplying the
# attention probs, get_extended_attention_mask for decoders, invert_attention_mask for encoders.
import math
import torch
import torch.nn as nn


def find_pruneable_heads_and_indices(heads, n_heads, head_size, already_pruned_heads):
    mask = torch.ones(n_heads, head_size)
    heads = set(heads) - already_pruned_heads
    for head in heads:
        head = head - sum(1 if h < head else 0 for h in already_pruned_heads)
        mask[head] = 0
    mask = mask.view(-1).contiguous().eq(1)
    index = torch.arange(len(mask))[mask].long()
    return heads, index


def prune_linear_layer(layer, index, dim=0):
    index = index.to(layer.weight.device)
    W = layer.weight.index_select(dim, index).detach().clone()
    if layer.bias is not None:
        b = layer.bias.clone().detach() if dim == 1 else layer.bias[index].clone().detach()
    new_size = list(layer.weight.size())
    new_size[dim] = len(index)
    new_layer = nn.Linear(new_size[1], new_size[0], bias=layer.bias is not None).to(layer.weight.device)
    new_layer.weight.requires_grad = False
    new_layer.weight.copy_(W.contiguous())
    new_layer.weight.requires_grad = True
    if layer.bias is not None:
        new_layer.bias.requires_grad = False
        new_layer.bias.copy_(b.contiguous())
        new_layer.bias.requires_grad = True
    return new_layer


class BertSelfAttention(nn.Module):
    def __init__(self, hidden=12, heads=3):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.all_head_size = hidden
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dense = nn.Linear(hidden, hidden)
        self.pruned_heads = set()

    def prune_heads(self, heads):
        heads, index = find_pruneable_heads_and_indices(heads, self.num_attention_heads,
                                                        self.attention_head_size, self.pruned_heads)
        self.query = prune_linear_layer(self.query, index)
        self.key = prune_linear_layer(self.key, index)
        self.value = prune_linear_layer(self.value, index)
        self.dense = prune_linear_layer(self.dense, index, dim=1)
        self.num_attention_heads -= len(heads)
        self.all_head_size = self.attention_head_size * self.num_attention_heads
        self.pruned_heads = self.pruned_heads.union(heads)
        return index

    def transpose_for_scores(self, x):
        return x.view(x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)).permute(0, 2, 1, 3)

    def forward(self, h, attention_mask=None, head_mask=None):
        q, k, v = (self.transpose_for_scores(f(h)) for f in (self.query, self.key, self.value))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        if head_mask is not None:
            probs = probs * head_mask
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return self.dense(ctx.view(ctx.size()[:-2] + (self.all_head_size,))), probs


def get_head_mask(head_mask, num_hidden_layers):
    if head_mask.dim() == 1:
        head_mask = head_mask.unsqueeze(0).unsqueeze(0).unsqueeze(-1).unsqueeze(-1)
        head_mask = head_mask.expand(num_hidden_layers, -1, -1, -1, -1)
    elif head_mask.dim() == 2:
        head_mask = head_mask.unsqueeze(1).unsqueeze(-1).unsqueeze(-1)
    return head_mask.to(dtype=torch.float32)


def invert_attention_mask(encoder_attention_mask):
    ext = encoder_attention_mask[:, None, None, :].to(torch.float32)
    return (1.0 - ext) * torch.finfo(torch.float32).min


def decoder_extended_mask(attention_mask):
    b, t = attention_mask.shape
    seq_ids = torch.arange(t)
    causal = seq_ids[None, None, :].repeat(b, t, 1) <= seq_ids[None, :, None]
    causal = causal.to(attention_mask.dtype)
    ext = causal[:, None, :, :] * attention_mask[:, None, None, :]
    return (1.0 - ext.to(torch.float32)) * torch.finfo(torch.float32).min


attn = BertSelfAttention()
with torch.no_grad():
    for i, p in enumerate(attn.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.5)
h = torch.cos(torch.arange(2 * 4 * 12, dtype=torch.float32) * 0.13).view(2, 4, 12)
mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]])
print((decoder_extended_mask(mask)[1, 0] == 0).int())
print(invert_attention_mask(mask)[1])

hm = get_head_mask(torch.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]), 2)
print("head_mask", tuple(hm.shape), tuple(get_head_mask(torch.tensor([1.0, 0.0, 1.0]), 2).shape))
out_masked, probs = attn(h, invert_attention_mask(mask), head_mask=hm[0])
print("masked head probs zero:", bool((probs[:, 1] == 0).all()), torch.round(probs[1, 0, 0], decimals=4))

index = attn.prune_heads([1])
print("kept index:", index.tolist())
print(attn.query, attn.dense, attn.num_attention_heads, attn.all_head_size, attn.pruned_heads)
print(attn.query.weight.requires_grad, attn.query.weight.is_leaf, attn.dense.bias.shape)
out_pruned, probs_p = attn(h, invert_attention_mask(mask))
print("pruned == head-masked:", torch.allclose(out_pruned, out_masked, atol=1e-6), tuple(probs_p.shape))
index2 = attn.prune_heads([1, 2])
print("second prune index:", index2.tolist(), attn.pruned_heads, attn.num_attention_heads)
out2, _ = attn(h)
out2.sum().backward()
print(tuple(out2.shape), torch.round(attn.query.weight.grad.sum(1), decimals=4))
print(sorted(attn.state_dict().keys()))
