# BERT-style embedding block: word + learned position + token_type embeddings, LayerNorm,
# dropout in eval, position_ids buffer, attention mask extension, and the word-embedding
# resize (new rows appended, old rows kept) that tokenizers with added tokens need.
import torch
import torch.nn as nn


class BertEmbeddings(nn.Module):
    def __init__(self, vocab, d, max_pos=16, types=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, d, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, d)
        self.token_type_embeddings = nn.Embedding(types, d)
        self.LayerNorm = nn.LayerNorm(d, eps=1e-12)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("position_ids", torch.arange(max_pos).expand((1, -1)), persistent=False)

    def forward(self, input_ids, token_type_ids=None):
        seq_len = input_ids.size(1)
        pos = self.position_ids[:, :seq_len]
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        x = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.LayerNorm(x))


V, d = 12, 6
m = BertEmbeddings(V, d)
with torch.no_grad():
    for i, emb in enumerate([m.word_embeddings, m.position_embeddings, m.token_type_embeddings]):
        n = emb.weight.numel()
        emb.weight.copy_(0.3 * torch.sin(torch.arange(n, dtype=torch.float32) * (0.5 + i)).view_as(emb.weight))
    m.word_embeddings.weight[0].zero_()
m.eval()
print(m.position_ids.shape, m.position_ids.is_contiguous(), m.position_ids.stride())
print(list(m.state_dict().keys()))

# [CLS] a b [SEP] c d [SEP] [PAD]
ids = torch.tensor([[1, 5, 6, 2, 7, 8, 2, 0], [1, 9, 2, 10, 2, 0, 0, 0]])
types = torch.tensor([[0, 0, 0, 0, 1, 1, 1, 0], [0, 0, 0, 1, 1, 0, 0, 0]])
attn = (ids != 0).long()
out = m(ids, types)
print(out.shape)
print(out[0, :2].round(decimals=4))
print(out.mean(-1).abs().max() < 1e-5, out.std(-1, unbiased=False).mean().round(decimals=3))

ext = (1.0 - attn[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min
print(ext.shape, ext[1, 0, 0])

loss = (out * attn.unsqueeze(-1)).pow(2).sum()
loss.backward()
print(m.word_embeddings.weight.grad[0].abs().sum().item())
print(m.token_type_embeddings.weight.grad.abs().sum(1).round(decimals=3))
print(m.position_embeddings.weight.grad.abs().sum(1).nonzero().flatten().tolist())

# resize_token_embeddings: copy the old rows into a larger table
old = m.word_embeddings
new = nn.Embedding(V + 3, d, padding_idx=old.padding_idx)
with torch.no_grad():
    new.weight[:V] = old.weight
    mean = old.weight[1:].mean(0)
    new.weight[V:] = mean
m.word_embeddings = new
print(m.word_embeddings, torch.equal(new.weight[:V], old.weight))
print(new.weight[V:].round(decimals=4))
print(m(torch.tensor([[1, 13, 14, 2]])).shape)
print(sum(p.numel() for p in m.parameters()))
