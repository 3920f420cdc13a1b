# Price-band features with searchsorted over unsorted band tables (argsort sorter), batched
# boundaries per category, preallocated out= buffers, and the errors of a misbuilt table.
import torch

bands = torch.tensor([50.0, 10.0, 100.0, 25.0])  # stored unsorted, as read from a config
order = torch.argsort(bands)
prices = torch.tensor([5.0, 10.0, 30.0, 75.0, 100.0, 250.0])
print(order, bands[order])
print(torch.searchsorted(bands, prices, sorter=order))
print(torch.searchsorted(bands, prices, sorter=order, side="right"))
print(torch.equal(torch.searchsorted(bands, prices, sorter=order), torch.bucketize(prices, bands.sort().values)))

per_cat = torch.tensor([[10.0, 20.0, 30.0], [100.0, 200.0, 300.0]])
cat_prices = torch.tensor([[5.0, 25.0, 35.0], [150.0, 300.0, 50.0]])
print(torch.searchsorted(per_cat, cat_prices), torch.searchsorted(per_cat, cat_prices, right=True))
buf = torch.empty(6, dtype=torch.long)
torch.searchsorted(bands.sort().values, prices, out=buf)
print(buf)
buf32 = torch.empty(6, dtype=torch.int32)
torch.bucketize(prices, bands.sort().values, out_int32=True, out=buf32)
print(buf32)
print(torch.searchsorted(torch.tensor([1, 3, 5]), 4), torch.bucketize(4, torch.tensor([1, 3, 5])))
band_ids = torch.bucketize(prices, bands.sort().values)
print(torch.bincount(band_ids, minlength=5))
print(torch.unique(band_ids, return_counts=True))


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except (RuntimeError, ValueError, TypeError) as e:
        print(label, "->", type(e).__name__, e)


attempt("short sorter", lambda: torch.searchsorted(bands, prices, sorter=order[:3]))
attempt("int32 sorter", lambda: torch.searchsorted(bands, prices, sorter=order.int()))
attempt("sorter range", lambda: torch.searchsorted(bands, prices, sorter=torch.tensor([1, 3, 0, 4])))
attempt("2d sorter", lambda: torch.searchsorted(bands, prices, sorter=order.view(1, 4)))
attempt("scalar table", lambda: torch.searchsorted(torch.tensor(3.0), prices))
attempt("bool table", lambda: torch.searchsorted(torch.tensor([False, True]), torch.tensor([True])))
attempt("side", lambda: torch.searchsorted(bands, prices, side="both"))
attempt("rows", lambda: torch.searchsorted(per_cat, prices))
attempt("2d bucketize", lambda: torch.bucketize(prices, per_cat))
attempt("out dtype", lambda: torch.searchsorted(bands.sort().values, prices, out=torch.empty(6)))
nan_bands = torch.tensor([10.0, float("nan"), 50.0])
print(torch.searchsorted(nan_bands, torch.tensor([5.0, 20.0, 60.0, float("nan")])))
print(torch.bucketize(torch.tensor([float("nan"), 20.0]), torch.tensor([10.0, 30.0])))
