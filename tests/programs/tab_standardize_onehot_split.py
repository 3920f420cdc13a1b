# Preprocessing a small tabular dataset the way course notebooks do: standardize features with
# mean/std(dim=0, keepdim=True), one-hot encode a categorical column, split train/validation.
import warnings
import torch
import torch.nn.functional as F
from torch.utils.data import TensorDataset, random_split

rows = [[25, 50000.0, 1, 0], [32, 64000.5, 0, 1], [47, 120000, 2, 1], [51, 98000.25, 1, 0],
        [38, 72000, 2, 1], [29, 58000.75, 0, 0], [44, 87000, 1, 1], [60, 110000.0, 2, 0]]
data = torch.tensor(rows)
print(data.dtype, data.shape)
print(data[:2])
X = data[:, :2]
cat = data[:, 2].long()
y = data[:, 3].long()
print(cat, cat.dtype, y.tolist())

mean = X.mean(dim=0, keepdim=True)
std = X.std(dim=0, keepdim=True)
std_b = X.std(dim=0, keepdim=True, unbiased=False)
print(mean, std, std_b, sep="\n")
Xs = (X - mean) / std
print(Xs)
print(Xs.mean(0).abs().max() < 1e-6, Xs.std(0))
print(torch.allclose(Xs.mean(0), torch.zeros(2), atol=1e-5))
mn, mx = X.min(dim=0, keepdim=True).values, X.max(dim=0).values
print(mn, mx)
Xmm = (X - mn) / (mx - mn)
print(Xmm)
print(torch.var(X, 0), X.var(dim=0, correction=0))

oh = F.one_hot(cat)
print(oh, oh.dtype, oh.shape)
print(F.one_hot(cat, num_classes=4).float())
eye = torch.eye(3)
print(eye[cat])
print(torch.eye(3, dtype=torch.long)[cat].sum(0))
features = torch.cat([Xs, oh.float()], dim=1)
print(features.shape, features[0])
try:
    F.one_hot(cat.float())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(cat, num_classes=2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([-1, 0]))
except RuntimeError as e:
    print(type(e).__name__, e)

n_train = int(0.75 * len(features))
X_train, X_val = features[:n_train], features[n_train:]
y_train, y_val = y[:n_train], y[n_train:]
print(X_train.shape, X_val.shape, y_train.shape, y_val.shape)
ds = TensorDataset(features, y)
train_ds, val_ds = random_split(ds, [6, 2], generator=torch.Generator().manual_seed(42))
print(len(train_ds), len(val_ds), type(train_ds).__name__)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print(len(a), len(b), len(c))
a, b = random_split(range(7), [0.5, 0.5])
print(len(a), len(b))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    parts = random_split(range(3), [0.1, 0.1, 0.8], generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts], [str(w.message) for w in caught])
try:
    random_split(ds, [5, 5])
except ValueError as e:
    print(type(e).__name__, e)
g = torch.Generator().manual_seed(3)
print(type(g).__name__, g.initial_seed())
perm = torch.randperm(8, generator=g)
print(perm.shape, perm.dtype, sorted(perm.tolist()))
