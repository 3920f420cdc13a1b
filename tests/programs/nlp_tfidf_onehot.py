# Bag-of-words / TF-IDF with tensors as in intro NLP courses: vocab via Counter, one_hot sums,
# document-frequency with (counts > 0).sum(0), idf = log(N / df), L2-normalised tf-idf, cosine
# similarity between documents, bincount and scatter_add_ term counts, top terms by topk.
from collections import Counter
import torch
import torch.nn.functional as F

docs = ["the cat sat on the mat", "the dog sat on the log", "cats and dogs", "the cat and the dog"]
tok = [d.split() for d in docs]
cnt = Counter(w for t in tok for w in t)
vocab = sorted(cnt)
w2i = {w: i for i, w in enumerate(vocab)}
V, N = len(vocab), len(docs)
print(V, cnt.most_common(2))

ids = [torch.tensor([w2i[w] for w in t]) for t in tok]
oh = [F.one_hot(i, num_classes=V) for i in ids]
print(oh[2], oh[2].dtype)
tf = torch.stack([o.sum(0) for o in oh])
print(tf)
tf2 = torch.stack([torch.bincount(i, minlength=V) for i in ids])
print(torch.equal(tf, tf2))
tf3 = torch.zeros(N, V).scatter_add_(1, torch.nn.utils.rnn.pad_sequence(ids, batch_first=True),
                                     torch.nn.utils.rnn.pad_sequence([torch.ones(len(i)) for i in ids], batch_first=True))
print(tf3)

df = (tf > 0).sum(0)
idf = torch.log(N / df.float())
print(df, idf)
idf_smooth = torch.log((1 + N) / (1 + df)) + 1
print(idf_smooth)
tfidf = tf.float() / tf.sum(1, keepdim=True) * idf
print(tfidf)
normed = F.normalize(tfidf, p=2, dim=1)
print(normed.norm(dim=1))
sim = normed @ normed.T
print(sim)
print(F.cosine_similarity(tfidf[0:1], tfidf, dim=1))
vals, top = tfidf.topk(2, dim=1)
print([[vocab[j] for j in row] for row in top.tolist()], vals)
print(F.one_hot(torch.tensor([[0, 2], [1, 1]])), F.one_hot(torch.tensor([3, 0]), 5).float().mean(0))
try:
    F.one_hot(torch.tensor([3, 5]), 4)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([1, -1]))
except Exception as e:
    print(type(e).__name__, e)
print(F.one_hot(torch.tensor([], dtype=torch.long), 3).shape)
print(torch.tensor(sorted(cnt.values(), reverse=True)).float().log1p())
