# numpy users carry over `out=` buffers and in-place methods: the torch spellings of
# np.cumsum(a, out=b), np.diff(.., out=), np.kron, np.isin, np.digitize and friends, plus the
# trailing-underscore in-place methods (clamp_, copysign_, frac_, fix_, logit_, heaviside_).
import torch

v = torch.tensor([3., 1., 2.])


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, "->", type(e).__name__, e)


buf = torch.empty(3)
r = torch.cumsum(v, 0, out=buf)
print(r, r is buf, buf)


def cummax_out():
    vals, idx = torch.empty(3), torch.empty(3, dtype=torch.long)
    res = torch.cummax(v, 0, out=(vals, idx))
    return res, vals, idx, res.values is vals


def cummin_out():
    vals, idx = torch.empty(3), torch.empty(3, dtype=torch.long)
    torch.cummin(v, 0, out=(vals, idx))
    return vals, idx


def into(fn, buf):
    out = fn(buf)
    return out, out is buf


show("cummax out:", cummax_out)
show("cummin out:", cummin_out)
show("logcumsumexp out:", lambda: into(lambda o: torch.logcumsumexp(v, 0, out=o), torch.empty(3)))
show("diff out:", lambda: into(lambda o: torch.diff(v, out=o), torch.empty(2)))
show("kron out:", lambda: into(lambda o: torch.kron(v, torch.tensor([1., 0., -1.]), out=o), torch.empty(9)))
show("isin out:", lambda: into(lambda o: torch.isin(v, torch.tensor([1., 3.]), out=o), torch.empty(3, dtype=torch.bool)))
show("nansum out:", lambda: into(lambda o: torch.nansum(torch.tensor([1., float("nan"), 2.]), 0, out=o), torch.empty(())))
show("bucketize out:", lambda: into(lambda o: torch.bucketize(v, torch.tensor([1.5, 2.5]), out=o), torch.empty(3, dtype=torch.long)))
show("take out:", lambda: into(lambda o: torch.take(v, torch.tensor([2, 0]), out=o), torch.empty(2)))
show("clamp out:", lambda: into(lambda o: torch.clamp(v, 1.5, 2.5, out=o), torch.empty(3)))
show("histc out:", lambda: into(lambda o: torch.histc(v, 3, out=o), torch.empty(3)))
show("xlogy out:", lambda: into(lambda o: torch.xlogy(v, v, out=o), torch.empty(3)))
show("heaviside out:", lambda: into(lambda o: torch.heaviside(v - 2, torch.tensor(0.5), out=o), torch.empty(3)))
show("where out:", lambda: into(lambda o: torch.where(v > 1.5, v, torch.tensor(0.), out=o), torch.empty(3)))
show("nanmean out:", lambda: into(lambda o: torch.nanmean(torch.tensor([1., float("nan")]), out=o), torch.empty(())))
show("count_nonzero:", lambda: torch.count_nonzero(v))

a = torch.tensor([-2.5, 0.5, 1.75])
show("clamp_ tensor min:", lambda: a.clone().clamp_(min=torch.tensor([0., 0., 0.])))
show("clamp_ tensor max:", lambda: a.clone().clamp_(max=torch.tensor([-3., 1., 1.])))
show("copysign_/frac_/fix_/trunc_:", lambda: (a.clone().copysign_(-1), a.clone().frac_(), a.clone().fix_(), a.clone().trunc_()))
show("logit_/xlogy_:", lambda: (torch.tensor([0.1, 0.5, 0.9]).logit_(eps=0.2), torch.tensor([1., 2.]).xlogy_(2)))
show("heaviside_:", lambda: (a.clone().heaviside_(torch.tensor(0.5)), (a - 0.5).heaviside_(torch.tensor([7., 8., 9.]))))
show("clip_/nan_to_num_:", lambda: (a.clone().clip_(-1, 1), torch.tensor([float("nan"), 1.]).nan_to_num_(0.)))
b = torch.arange(6.).view(2, 3)
show("swapaxes_/swapdims_/t_:", lambda: (b.clone().swapaxes_(0, 1), b.clone().swapdims_(0, 1).shape, b.clone().t_().is_contiguous()))
