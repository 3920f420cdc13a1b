# OpInfo "supported dtypes" sweep: make_tensor inputs for each dtype, and for each op either the
# output dtype/shape (values are random, so not printed) or the error PyTorch raises.
import torch
from torch.testing import make_tensor

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16,
          torch.float32, torch.float64, torch.complex64]

OPS = {
    "sum": lambda t: t.sum(),
    "prod": lambda t: t.prod(dim=0),
    "mean": lambda t: t.mean(),
    "cumsum": lambda t: t.cumsum(0),
    "argmax": lambda t: t.argmax(),
    "max": lambda t: t.max(),
    "sort": lambda t: t.sort(dim=-1).values,
    "abs": torch.abs,
    "neg": torch.neg,
    "sqrt": torch.sqrt,
    "exp": torch.exp,
    "sigmoid": torch.sigmoid,
    "floor": torch.floor,
    "sign": torch.sign,
    "bitwise_not": torch.bitwise_not,
    "logical_not": torch.logical_not,
    "clamp": lambda t: t.clamp(min=0),
    "div_floor": lambda t: torch.div(t, 2, rounding_mode="floor"),
    "remainder": lambda t: t % 3,
    "pow2": lambda t: t ** 2,
    "matmul": lambda t: t @ t.t(),
    "std": lambda t: t.std(),
    "softmax": lambda t: torch.softmax(t, dim=-1),
    "topk": lambda t: t.topk(2).values,
    "isnan": torch.isnan,
    "nonzero": lambda t: t.nonzero().shape[1],
    "unique": lambda t: torch.unique(t).dtype,
    "where": lambda t: torch.where(t.bool(), t, t),
}


def describe(result):
    if isinstance(result, torch.Tensor):
        return f"{str(result.dtype).replace('torch.', '')}{list(result.shape)}"
    return str(result).replace("torch.", "")


for name, op in OPS.items():
    cells = []
    for dtype in DTYPES:
        t = make_tensor((3, 4), dtype=dtype, device="cpu", low=1 if dtype != torch.bool else None,
                        high=5 if dtype != torch.bool else None)
        try:
            cells.append(describe(op(t)))
        except (RuntimeError, TypeError, NotImplementedError) as e:
            msg = str(e).split("\n")[0]
            cells.append(f"ERR({type(e).__name__}: {msg[:70]})")
    print(f"== {name}")
    for dtype, cell in zip(DTYPES, cells):
        print(f"   {str(dtype).replace('torch.', ''):10s} {cell}")
