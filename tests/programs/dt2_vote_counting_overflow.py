# Tallying votes / pixel counts stored in compact integer tensors (uint8 ballots, int16
# counters): sum/cumsum/prod promote to int64 unless dtype= asks otherwise, wraparound when it
# does, mean of ints refusing, and turning counts into shares with true division.
import torch

ballots = (torch.arange(300) * 7 % 5).to(torch.uint8).reshape(30, 10)  # 30 voters, 10 races
print("ballots", ballots.dtype, ballots.shape, ballots[0])
print("sum", ballots.sum(), ballots.sum().dtype)
print("sum(0)", ballots.sum(0), ballots.sum(0).dtype)
print("sum dtype=uint8", ballots.sum(dtype=torch.uint8))
print("sum(1) keepdim", ballots.sum(1, keepdim=True)[:3].T)
print("cumsum", ballots[:, 0].cumsum(0)[-5:], ballots[:, 0].cumsum(0).dtype)
print("cumsum dtype=uint8", ballots[:, 0].cumsum(0, dtype=torch.uint8)[-5:])
print("nansum", ballots.nansum(), ballots.nansum().dtype)

c16 = torch.tensor([30000, 2000, 1000], dtype=torch.int16)
print("int16 sum", c16.sum(), "in-dtype add", c16[0] + c16[1] + c16[2])
print("int16 + int16 tensor", (c16 + c16).dtype, c16 + c16)
print("int16 prod", c16.prod(), c16.prod().dtype)
print("int8 prod", torch.tensor([100, 100, 100], dtype=torch.int8).prod(dim=0))
print("int32 cumprod", torch.arange(1, 15, dtype=torch.int32).cumprod(0)[-3:], torch.arange(1, 15, dtype=torch.int32).cumprod(0).dtype)
print("int64 wrap", torch.tensor([2 ** 62, 2 ** 62]).sum())
print("bool sum", (ballots == 3).sum(), (ballots == 3).sum(0).dtype, (ballots == 3).cumsum(0).dtype)

for what, fn in [("mean", lambda: ballots.mean()), ("mean(0)", lambda: ballots.mean(0)),
                 ("torch.mean", lambda: torch.mean(c16)), ("std", lambda: c16.std()),
                 ("var", lambda: c16.var()), ("median", lambda: c16.median()),
                 ("nanmean", lambda: c16.nanmean()), ("quantile", lambda: c16.quantile(0.5))]:
    try:
        print(what, fn())
    except Exception as e:
        print(what, type(e).__name__, e)
print("mean dtype=", ballots.mean(dtype=torch.float32), ballots.float().mean(0)[:3])
print("mean dtype f64", c16.mean(dtype=torch.float64))

tally = torch.stack([(ballots[:, 0] == k).sum() for k in range(5)])
print("tally", tally, tally.dtype)
share = tally / tally.sum()
print("share", share, share.dtype, share.sum())
print("percent int", tally * 100 // tally.sum(), (tally * 100).div(tally.sum(), rounding_mode="trunc"))
print("winner", tally.argmax(), tally.max(), tally.max().dtype)
print("bincount", torch.bincount(ballots[:, 0].long()), torch.bincount(ballots[:, 0]))
hist = torch.zeros(5, dtype=torch.int16)
hist.index_add_(0, ballots[:, 1].long(), torch.ones(30, dtype=torch.int16))
print("index_add int16", hist)
s = torch.zeros(5, dtype=torch.uint8)
s.scatter_add_(0, ballots.flatten().long(), torch.ones(300, dtype=torch.uint8))
print("scatter_add uint8 (wraps)", s, torch.bincount(ballots.flatten()))
print("count_nonzero", torch.count_nonzero(ballots), torch.count_nonzero(ballots, dim=0).dtype)
print("amax", ballots.amax(), ballots.amax().dtype, ballots.max(0).values.dtype)
print("sum of empty", torch.tensor([], dtype=torch.uint8).sum(), torch.tensor([], dtype=torch.int8).prod())
print("all/any uint8", ballots.all(), ballots.any(dim=0).dtype, ballots.bool().all(), ballots.all().dtype)
