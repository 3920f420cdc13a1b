# The "Word Embeddings: Encoding Lexical Semantics" tutorial, scaled down: an N-Gram language
# model (context of two words -> Embedding -> view(1, -1) -> Linear -> ReLU -> Linear ->
# log_softmax, NLLLoss, SGD) trained over a sonnet fragment, then the CBOW exercise
# (sum of context embeddings), with embedding lookups and nearest-word queries.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

CONTEXT_SIZE, EMBEDDING_DIM = 2, 5
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,""".split()
ngrams = [([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
          for i in range(CONTEXT_SIZE, len(test_sentence))]
print(ngrams[:3])
vocab = sorted(set(test_sentence))
word_to_ix = {word: i for i, word in enumerate(vocab)}
print(len(vocab), vocab[:4])


def det_init(model, k):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view(p.shape) * 0.3)


class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 16)
        self.linear2 = nn.Linear(16, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
det_init(model, 0.53)
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(total_loss)
print([round(l, 3) for l in losses])
print(model.embeddings.weight[word_to_ix["beauty's"]])
print(log_probs.shape, log_probs.grad_fn.name(), log_probs.exp().sum().item() - 1 < 1e-5)


class CBOW(nn.Module):
    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).sum(dim=0, keepdim=True)
        return F.log_softmax(self.linear(embeds), dim=-1)


def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)


data = [([test_sentence[i - 2], test_sentence[i - 1], test_sentence[i + 1], test_sentence[i + 2]], test_sentence[i])
        for i in range(2, len(test_sentence) - 2)]
cbow = CBOW(len(vocab), EMBEDDING_DIM)
det_init(cbow, 0.71)
opt = optim.Adam(cbow.parameters(), lr=0.05)
for epoch in range(3):
    total = torch.zeros(())
    for context, target in data:
        opt.zero_grad()
        loss = F.nll_loss(cbow(make_context_vector(context, word_to_ix)), torch.tensor([word_to_ix[target]]))
        loss.backward()
        opt.step()
        total += loss.detach()
    print(f"cbow epoch {epoch} total {total.item():.4f}")
with torch.no_grad():
    emb = F.normalize(cbow.embeddings.weight, dim=1)
    sims = emb @ emb[word_to_ix["thy"]]
    top = sims.topk(3)
print([vocab[i] for i in top.indices.tolist()], top.values)
print(cbow.embeddings(torch.tensor([word_to_ix["thy"]])).shape, cbow.embeddings.weight.grad.abs().sum(dim=1).nonzero().flatten().tolist())
