# Forum question: "result type Float can't be cast to the desired output type Long" and
# "output with shape [3] doesn't match the broadcast shape [2, 3]" from in-place arithmetic,
# plus broadcasting size errors in ordinary elementwise math.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


counts = torch.tensor([3, 5, 7])
attempt("long /= 2", lambda: counts.clone().div_(2))
attempt("long *= 0.5", lambda: counts.clone().mul_(0.5))
attempt("long += float tensor", lambda: counts.clone().add_(torch.ones(3)))
attempt("long += 1 ok", lambda: counts.clone().add_(1))
attempt("long // 2 ok", lambda: counts // 2)
attempt("long / 2 promotes", lambda: counts / 2)
attempt("div rounding floor", lambda: torch.div(counts, 2, rounding_mode="floor"))
attempt("div rounding bad", lambda: torch.div(counts, 2, rounding_mode="round"))
attempt("long.sqrt()", lambda: counts.sqrt())
attempt("long.sqrt_()", lambda: counts.clone().sqrt_())
attempt("long.exp_()", lambda: counts.clone().exp_())
attempt("bool add_", lambda: torch.tensor([True, False]).add_(1))
attempt("bool - bool", lambda: torch.tensor([True]) - torch.tensor([False]))
attempt("bool neg", lambda: -torch.tensor([True]))
attempt("~float", lambda: ~torch.ones(2))
attempt("int & float", lambda: torch.tensor([1]) & torch.tensor([1.0]))
attempt("float % 0", lambda: torch.tensor([1.0]) % 0)
attempt("long % 0", lambda: torch.tensor([1]) % 0)
attempt("long // 0", lambda: torch.tensor([1]) // 0)
attempt("long pow negative", lambda: torch.tensor([2]) ** -1)
attempt("float pow negative ok", lambda: torch.tensor([2.0]) ** -1)
attempt("clamp long float", lambda: counts.clone().clamp_(min=0.5))
attempt("float32 += double", lambda: torch.ones(2).add_(torch.ones(2, dtype=torch.float64)).dtype)
attempt("half += float", lambda: torch.ones(2).half().add_(torch.ones(2)).dtype)
attempt("uint8 -= 1 wraps", lambda: torch.zeros(2, dtype=torch.uint8).sub_(1))

row = torch.ones(3)
mat = torch.arange(6.).view(2, 3)
attempt("row += mat", lambda: row.clone().add_(mat))
attempt("mat += row ok", lambda: mat.clone().add_(row))
attempt("col vector +=", lambda: torch.ones(2, 1).mul_(mat))
attempt("mat + (2,) ", lambda: mat + torch.ones(2))
attempt("mat + (2,1) ok", lambda: (mat + torch.ones(2, 1)).shape)
attempt("3-D broadcast err", lambda: torch.ones(4, 2, 3) * torch.ones(4, 3, 2))
attempt("where mismatch", lambda: torch.where(mat > 2, mat, torch.zeros(3, 2)))
attempt("where float cond", lambda: torch.where(mat, mat, mat))
attempt("maximum mismatch", lambda: torch.maximum(mat, torch.ones(4)))
attempt("lerp mismatch", lambda: torch.lerp(mat, torch.ones(4), 0.5))
attempt("addcmul mismatch", lambda: torch.addcmul(mat, torch.ones(2), mat))
attempt("copy_ mismatch", lambda: mat.clone().copy_(torch.ones(4)))
attempt("copy_ broadcast ok", lambda: mat.clone().copy_(torch.ones(3)))
attempt("masked_fill float mask", lambda: mat.masked_fill(mat, 0.0))
attempt("masked_fill bad shape", lambda: mat.masked_fill(torch.tensor([True, False]), 0.0))
attempt("masked_fill tensor value", lambda: mat.masked_fill(mat > 2, torch.tensor([1.0, 2.0])))
attempt("eq shape mismatch", lambda: torch.eq(mat, torch.ones(4)))
attempt("allclose mismatch", lambda: torch.allclose(mat, torch.ones(4)))
attempt("allclose dtype", lambda: torch.allclose(mat, mat.double()))
attempt("equal shapes differ", lambda: torch.equal(mat, torch.ones(4)))
attempt("isclose int float", lambda: torch.isclose(counts, counts.float()))

# grad-tracking leaf modified in place
w = torch.ones(3, requires_grad=True)
attempt("leaf add_", lambda: w.add_(1))
attempt("view of leaf add_", lambda: w[:2].add_(1))
attempt("leaf data ok", lambda: w.data.add_(1))
attempt("int tensor grad op", lambda: (counts * w).dtype)
