# Wide & Deep with multi-hot genre features fed through nn.EmbeddingBag (CSR-style offsets with
# include_last_offset), a wide linear part over one-hot crosses, and per-sample weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

# movie -> genres (variable length), stored flat with CSR offsets
genres = torch.tensor([0, 3, 1, 2, 4, 0, 1, 4, 2])
csr = torch.tensor([0, 2, 5, 5, 7, 9])        # 5 movies, movie 2 has no genre
genre_w = torch.tensor([1.0, 0.5, 1.0, 1.0, 0.25, 2.0, 1.0, 1.0, 0.5])
user_age_bucket = torch.tensor([0, 2, 1, 1, 3])
clicked = torch.tensor([1., 0., 0., 1., 1.])


class WideDeep(nn.Module):
    def __init__(self):
        super().__init__()
        self.genre_bag = nn.EmbeddingBag(5, 4, mode="sum", include_last_offset=True)
        self.age_emb = nn.Embedding(4, 4)
        self.wide = nn.Linear(5 * 4, 1)
        self.deep = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 1))

    def forward(self, genres, csr, weights, age):
        g = self.genre_bag(genres, csr, per_sample_weights=weights)
        multi_hot = torch.zeros(len(age), 5).index_put_((torch.repeat_interleave(torch.arange(len(age)), csr.diff()), genres), torch.ones(len(genres)), accumulate=True)
        cross = (multi_hot.unsqueeze(2) * F.one_hot(age, 4).unsqueeze(1)).flatten(1)
        deep_in = torch.cat([g, self.age_emb(age)], dim=1)
        return (self.wide(cross) + self.deep(deep_in)).squeeze(1), cross


model = WideDeep()
with torch.no_grad():
    for k, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.3 * torch.sin(0.5 * torch.arange(p.numel(), dtype=torch.float32) - k).view_as(p))
print(model.genre_bag)
logit, cross = model(genres, csr, genre_w, user_age_bucket)
print(cross.sum(1), cross.shape)
print(logit.detach().round(decimals=4))
print(model.genre_bag(genres, csr, per_sample_weights=genre_w).detach().round(decimals=3))
print(torch.repeat_interleave(torch.arange(5), csr.diff()))
opt = torch.optim.Adam(model.parameters(), lr=0.03)
for step in range(20):
    logit, _ = model(genres, csr, genre_w, user_age_bucket)
    loss = F.binary_cross_entropy_with_logits(logit, clicked)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step + 1} loss {loss.item():.4f}")
print(model.genre_bag.weight.grad.round(decimals=4))
print((torch.sigmoid(logit) > 0.5).long().tolist(), clicked.long().tolist())
# same bags with the 2-D padded layout and mode="mean" with padding_idx
padded = torch.tensor([[0, 3, 5], [1, 2, 4], [5, 5, 5], [0, 1, 5], [4, 2, 5]])
bag_mean = nn.EmbeddingBag(6, 2, mode="mean", padding_idx=5)
with torch.no_grad():
    bag_mean.weight.copy_(torch.arange(12, dtype=torch.float32).view(6, 2))
print(bag_mean(padded))
print(F.embedding_bag(genres, bag_mean.weight, csr, mode="mean", include_last_offset=True))
print(F.embedding_bag(genres, bag_mean.weight, csr, mode="max", include_last_offset=True))
