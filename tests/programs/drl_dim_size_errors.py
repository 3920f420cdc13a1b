# "Why does this raise?" -- the error messages for wrong dims and sizes that people paste into
# forum questions, for the manipulation ops (diff/roll/rot90/diag_embed/take_along_dim/splits).
import torch

m = torch.arange(6.).view(2, 3)
cases = {
    "cummax dim=-3": lambda: torch.cummax(m, dim=-3),
    "logcumsumexp dim=2": lambda: torch.logcumsumexp(m, dim=2),
    "nansum dim=2": lambda: torch.nansum(m, dim=2),
    "nanmean dims (0, 2)": lambda: torch.nanmean(m, dim=(0, 2)),
    "nanmedian dim=5": lambda: torch.nanmedian(m, dim=5),
    "diagonal dim2=3": lambda: torch.diagonal(m, dim1=0, dim2=3),
    "diag_embed dim2=3": lambda: torch.diag_embed(m, dim1=0, dim2=3),
    "diag_embed positional dims": lambda: torch.diag_embed(m, 0, 0, 1).shape,
    "diag_embed of a scalar": lambda: torch.diag_embed(torch.tensor(5.)),
    "take_along_dim wrong rows": lambda: torch.take_along_dim(m, torch.tensor([[0], [1], [0]]), dim=1),
    "unbind dim=2": lambda: m.unbind(2),
    "movedim 2 -> 0": lambda: m.movedim(2, 0),
    "swapaxes 0, 2": lambda: m.swapaxes(0, 2),
    "narrow dim=2": lambda: m.narrow(2, 0, 1),
    "narrow negative length": lambda: m.narrow(1, 0, -1),
    "select -4": lambda: m.select(1, -4),
    "tensor_split dim=2": lambda: torch.tensor_split(m, 2, dim=2),
    "chunk dim=-3": lambda: torch.chunk(m, 2, dim=-3),
    "split sizes do not add up": lambda: torch.split(m, [1, 1], dim=1),
    "split size 0": lambda: torch.split(m, 0, dim=1),
    "flip dim 2": lambda: torch.flip(m, [2]),
    "rot90 dims [0, 2]": lambda: torch.rot90(m, 1, [0, 2]),
    "rot90 of a vector": lambda: torch.rot90(torch.arange(3), 1),
    "diff dim=2": lambda: torch.diff(m, dim=2),
    "diff append wrong rows": lambda: torch.diff(m, append=torch.ones(3, 1)),
    "diff prepend 1-D": lambda: torch.diff(m, prepend=torch.ones(2)),
    "count_nonzero dim=2": lambda: torch.count_nonzero(m, dim=2),
    "unique_consecutive dim=3": lambda: torch.unique_consecutive(m, dim=3),
    "clamp min shape": lambda: torch.clamp(m, min=torch.ones(3, 3)),
    "where other shape": lambda: torch.where(m > 1, m, torch.ones(3)),
    "xlogy shapes": lambda: torch.xlogy(m, torch.ones(4)),
    "copysign shapes": lambda: torch.copysign(m, torch.ones(4)),
    "isclose shapes": lambda: torch.isclose(m, torch.ones(4)),
    "histc bins=-1": lambda: torch.histc(m, bins=-1),
    "histc bins=2.5": lambda: torch.histc(m, bins=2.5),
    "vander N=2.5": lambda: torch.vander(torch.ones(2), N=2.5),
    "movedim repeated destination": lambda: torch.movedim(m, [0, 1], [1, 1]),
    "tril_indices one argument": lambda: torch.tril_indices(3),
    "atleast_2d of an int": lambda: torch.atleast_2d(5),
    "searchsorted batch mismatch": lambda: torch.searchsorted(torch.tensor([[1., 2.]]), m),
    "roll shifts/dims mismatch": lambda: torch.roll(m, [1], [0, 1]),
    "kron with mixed dtypes": lambda: torch.kron(torch.ones(2), torch.ones(2, dtype=torch.long)),
}
for name, fn in cases.items():
    try:
        out = fn()
        print(f"{name}: ok -> {out}")
    except Exception as e:
        print(f"{name}: {type(e).__name__}: {e}")
