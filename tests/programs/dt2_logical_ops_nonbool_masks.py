# Masks that are not bool: logical_and/or/xor/not on float, int and uint8 tensors (what dtype
# comes out, out= into a float tensor), comparisons between mixed dtypes and with Python
# numbers, any/all/where on numeric masks, and ~ on a uint8 "mask" (a classic bug).
import torch

valid = torch.tensor([1, 0, 1, 1, 0], dtype=torch.uint8)       # old-style byte mask
weight = torch.tensor([0.5, 0.0, -0.0, float("nan"), 2.0])
count = torch.tensor([3, 0, -1, 0, 7])

print("and", torch.logical_and(valid, weight), torch.logical_and(valid, weight).dtype)
print("or", torch.logical_or(count, weight))
print("xor", torch.logical_xor(valid, count))
print("not", torch.logical_not(weight), torch.logical_not(count))
print("not int8 -128", torch.logical_not(torch.tensor([-128, 0], dtype=torch.int8)))
print("method", valid.logical_and(count > 0), count.logical_not().dtype)
out = torch.empty(5)
torch.logical_and(valid, count, out=out)
print("out float", out)
out_i = torch.empty(5, dtype=torch.int16)
torch.logical_or(valid, weight, out=out_i)
print("out int16", out_i)
print("logical_not out=", torch.logical_not(count, out=torch.empty(5, dtype=torch.int64)))
print("and scalar t", torch.logical_and(count, torch.tensor(2.5)))
vv = valid.clone()
vv.logical_and_(count)
print("in-place keeps uint8", vv, vv.dtype)
ff = weight.clone()
ff.logical_not_()
print("in-place float", ff)

# the ~ bug: bitwise not on uint8 is not logical not
print("~uint8", ~valid, "vs", ~valid.bool(), "vs", 1 - valid)
print("~int64", ~count)
print("invert bool", (~(count > 0)).int())
try:
    ~weight
except Exception as e:
    print(type(e).__name__, e)

# comparisons across dtypes
print("int vs float", count == torch.tensor([3.0, 0.0, -1.0, 0.5, 7.0]))
print("uint8 vs -1", valid > -1, torch.tensor([255], dtype=torch.uint8) == -1)
print("uint8 vs 256", torch.tensor([0], dtype=torch.uint8) == 256)
print("int vs 2.5", count > 2.5, count.ge(0.0).dtype)
print("float16 vs float64", torch.tensor([0.1], dtype=torch.float16) == torch.tensor([0.1], dtype=torch.float64))
print("float16 vs 0.1", torch.tensor([0.1], dtype=torch.float16) == 0.1)
print("float32 vs 0.1", torch.tensor([0.1]) == 0.1, torch.tensor([0.1], dtype=torch.float64) == 0.1)
print("int8 vs int64 big", torch.tensor([1], dtype=torch.int8) < torch.tensor([1000]))
print("bool vs int", torch.tensor([True, False]) == torch.tensor([1, 2]))
print("nan compare", weight == weight, weight != weight, torch.eq(weight, float("nan")))
print("eq out int", torch.eq(count, 0, out=torch.empty(5, dtype=torch.int32)))
print("maximum mixed", torch.maximum(count, weight), torch.maximum(valid, torch.tensor([2, 0, 0, 0, 0], dtype=torch.int8)))
print("minimum f16 f32", torch.minimum(torch.ones(2, dtype=torch.float16), torch.zeros(2)).dtype)

# any / all / where / masked ops with numeric masks
print("any/all", count.any(), count.all(), weight.any(), weight.all(), valid.all().dtype, count.any(0).dtype)
print("where uint8 cond")
try:
    print(torch.where(valid, weight, 0.0))
except Exception as e:
    print(type(e).__name__, e)
print("where bool", torch.where(valid.bool(), weight, 0.0))
print("where int/float branches", torch.where(count > 0, count, 0.5), torch.where(count > 0, count, 0).dtype)
print("where scalars", torch.where(count > 0, 1, 0).dtype, torch.where(count > 0, 1.0, 0).dtype)
try:
    print(weight[valid])
except Exception as e:
    print(type(e).__name__, e)
print("masked_fill uint8")
try:
    print(weight.masked_fill(valid, -1.0))
except Exception as e:
    print(type(e).__name__, e)
print("masked_fill bool", weight.masked_fill(~valid.bool(), -1.0))
print("nonzero float", torch.nonzero(weight).flatten(), weight.nonzero(as_tuple=True)[0])
print("count", valid.sum(), (weight != 0).sum(), torch.count_nonzero(weight))
