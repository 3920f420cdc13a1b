# Cleaning a feature matrix with missing values: numpy float64 arrays into torch, isnan masks,
# nanmean/nansum imputation, nan_to_num, and converting results back with .numpy()/.tolist().
import warnings
import numpy as np
import torch

raw = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan], [np.nan, 8.0, 9.0], [10.0, 11.0, 12.0]])
t = torch.from_numpy(raw)
print(t.dtype, t.shape, t.requires_grad)
print(t)
x = t.float()
print(x.dtype, x)
mask = torch.isnan(x)
print(mask, mask.sum(), mask.sum(dim=0), mask.any(dim=1))
print(x.mean(0), x.sum(0))
print(torch.nanmean(x, dim=0), x.nansum(dim=0), x.nanmean(), torch.nansum(x))
col_means = torch.nanmean(x, dim=0, keepdim=True)
filled = torch.where(mask, col_means.expand_as(x), x)
print(filled)
x2 = x.clone()
x2[mask] = col_means.expand_as(x)[mask]
print(torch.equal(x2, filled))
x3 = x.clone()
rows, cols = torch.where(mask)
print(rows, cols)
x3[rows, cols] = col_means[0, cols]
print(torch.equal(x3, filled))
print(torch.nan_to_num(x), torch.nan_to_num(x, nan=-1.0))
print(x[~mask.any(1)], x[:, ~mask.any(0)].shape)
print(torch.nanmedian(x, dim=0), torch.nanmedian(x))
print(torch.nanquantile(x, 0.5, dim=0), torch.quantile(x, 0.5, dim=0))
print(x.isnan().float().mean(0), (x != x).sum().item())
sparse = torch.tensor([[float("nan"), 1.0], [float("nan"), 3.0]])
with warnings.catch_warnings(record=True) as caught:
    means = torch.nanmean(sparse, dim=0)
    logits = torch.sigmoid(torch.tensor([-100.0, 0.0, 100.0]))
print(means, logits, [f"{w.category.__name__}: {w.message}" for w in caught])

w = np.array([0.5, -1.0, 2.0])
print(filled @ torch.from_numpy(w).float(), filled.double() @ torch.from_numpy(w))
try:
    filled @ torch.from_numpy(w)
except RuntimeError as e:
    print(type(e).__name__, e)
arr = filled.numpy()
print(type(arr).__name__, arr.dtype, arr.shape)
arr[0, 0] = 100.0
print(filled[0, 0])
print(filled.tolist()[0], type(filled.tolist()[0][0]).__name__)
ints = torch.from_numpy(np.array([1, 2, 3]))
print(ints.dtype, ints + 0.5, torch.as_tensor(np.arange(3), dtype=torch.float32))
print(torch.tensor(np.float64(2.5)), torch.tensor(np.int32(7)).dtype, torch.tensor([np.float32(1.5), 2]))
print(torch.from_numpy(np.array([True, False])), torch.from_numpy(np.zeros((2, 0))).shape)
mixed = [[1, 2.5, 3], [4, 5, 6.25]]
print(torch.tensor(mixed), torch.tensor(mixed).dtype, torch.tensor([[1, 2], [3, 4]]).dtype)
print(torch.tensor([[1, 2], [3, None]]) if False else torch.tensor([1, True, 2.0]))
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([[1.0, "2"]])
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    torch.from_numpy(np.array(["a", "b"]))
except TypeError as e:
    print(type(e).__name__, e)
try:
    torch.from_numpy([1.0, 2.0])
except TypeError as e:
    print(type(e).__name__, e)
print(torch.tensor([np.nan, np.inf, -np.inf]).nan_to_num(), torch.nan_to_num(torch.tensor([np.nan, np.inf]), posinf=1e3))
print(torch.isinf(torch.tensor([1.0, np.inf])), torch.isfinite(torch.tensor([np.nan, 1.0, -np.inf])))
print(np.asarray(torch.arange(3.)), np.array(torch.tensor([1, 2])).dtype, torch.tensor(3.5).numpy(), torch.tensor(3.5).numpy().shape)
frozen = np.array([1.0, 2.0, 3.0])
frozen.flags.writeable = False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ft = torch.from_numpy(frozen)
print(ft, [str(w.message)[:40] for w in caught])
print(np.mean(torch.tensor([1.0, 2.0, 4.0]).numpy()), np.asarray(torch.tensor([1.0, 2.0])).sum())
print(torch.tensor(np.array([1, 2], dtype=np.uint16)), torch.from_numpy(np.array([7], dtype=np.uint8)))
