# d2l.ai 2.2 data preprocessing, with the csv module and numpy instead of pandas:
# read a small CSV, impute missing values, one-hot a categorical column, convert to tensors.
import csv
import io

import numpy as np
import torch

data = io.StringIO("NumRooms,RoofType,Price\nNA,NA,127500\n2,NA,106000\n4,Slate,178100\nNA,NA,140000\n")
rows = list(csv.DictReader(data))
print(rows[0])

num_rooms = np.array([float(r['NumRooms']) if r['NumRooms'] != 'NA' else np.nan for r in rows])
roof = [r['RoofType'] if r['RoofType'] != 'NA' else None for r in rows]
price = np.array([float(r['Price']) for r in rows])
num_rooms = np.where(np.isnan(num_rooms), np.nanmean(num_rooms), num_rooms)
cats = ['Slate', None]
one_hot = np.array([[c == cat for cat in cats] for c in roof])
inputs = np.column_stack([num_rooms, one_hot])
print(inputs, inputs.dtype)

X = torch.tensor(inputs.astype(float))
y = torch.tensor(price)
print(X, y)
print(X.dtype, y.dtype, X.shape)
print(torch.tensor(one_hot), torch.tensor(one_hot).dtype)
print(torch.from_numpy(num_rooms).float())
Xf = torch.tensor(inputs, dtype=torch.float32)
print(Xf, Xf.dtype)

# missing values as tensors: nan masks and imputing with the column mean
raw = torch.tensor([[float('nan'), 1.0], [2.0, float('nan')], [4.0, 3.0], [float('nan'), 5.0]])
print(raw, torch.isnan(raw).sum(0))
col_mean = torch.nanmean(raw, dim=0)
print(col_mean)
filled = torch.where(torch.isnan(raw), col_mean, raw)
print(filled)
print(raw.nan_to_num(0.0), torch.nan_to_num(raw, nan=-1.0))
print(raw.isnan().any(dim=1), raw[~raw.isnan().any(dim=1)])
print(torch.nansum(raw), raw.sum(), raw.max())

# the "delete the column with most missing values" exercise
counts = torch.isnan(raw).sum(dim=0)
keep = counts != counts.max()
print(counts, keep, raw[:, keep])
print(X.numpy().dtype, y.numpy().dtype, X.numpy() is inputs)
a = np.arange(6, dtype=np.int32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
print(t, t.dtype)
print(torch.as_tensor(a[1]), torch.as_tensor([1.5, 2.5], dtype=torch.float64))
print(torch.tensor(np.float32(2.5)), torch.tensor(np.int64(3)), torch.tensor([np.float64(1.0)]))
print(torch.tensor(price) / 1000, (torch.tensor(price) / 1000).round(decimals=1))
print(torch.tensor(price).mean(), y.std(), y.median())

# numpy scalars (from np.mean / np.sqrt) mixed into tensor arithmetic
mean_price = np.mean(price)
centered = y.float() - torch.tensor(mean_price, dtype=torch.float32)
w = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
scaled = np.sqrt(2.0) * (Xf @ w)
print(type(scaled).__name__, scaled, scaled.grad_fn)
print(type(mean_price * torch.ones(2)).__name__, centered / np.float64(1000.0))
