# Mixing complex with real and integer tensors in signal-processing code: complex64 meets
# conj_physical), abs/angle/real/imag dtypes, and the errors for complex-only/real-only ops.
import torch

z = torch.tensor([1 + 2j, -3 + 0.5j, 0 - 1j])  # complex64
print(z.dtype, z)
r64 = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
print("c64+f64", (z + r64).dtype, "c64+i32", (z + i32).dtype, "c64*f16", (z * torch.ones(3, dtype=torch.float16)).dtype)
print("c64 + f64 0-d", (z + torch.tensor(1.0, dtype=torch.float64)).dtype)
print("f64 + c64 0-d", (r64 + torch.tensor(1j)).dtype, "f32 + 1j", (torch.ones(2) + 1j).dtype)
print("int + 1j", (i32 * 1j).dtype)
print("bool*1j", torch.tensor([True, False]) * 1j)
print("result_type", torch.result_type(r64, 1j), torch.result_type(i32, 2 + 0j),
      torch.promote_types(torch.complex64, torch.float64), torch.promote_types(torch.float16, torch.complex64))
print("can_cast", torch.can_cast(torch.complex64, torch.float32), torch.can_cast(torch.float64, torch.complex64),
      torch.can_cast(torch.int64, torch.complex64))

# conj is a lazy view
c = z.conj()
p = torch.conj_physical(z)
print("conj imag", c.imag, c.real)
cc = c.clone()
try:
    pass
except Exception as e:
    print(type(e).__name__, e)
print("resolved numpy", c.resolve_conj().numpy())

# real-valued results of complex ops
print("abs", z.abs(), z.abs().dtype)
print("angle", z.angle(), torch.tensor([-1, 0, 2]).angle(), torch.tensor([-1.0, 0.0, 2.0]).angle())
print("real/imag", z.real.dtype, z.imag)
try:
    r64.imag
except Exception as e:
    print(type(e).__name__, e)
print("real of real", r64.real is r64 or torch.equal(r64.real, r64))
print("view_as_real", torch.view_as_real(z))
print("polar", torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, torch.pi / 2])))
print("complex()", torch.complex(torch.tensor([1.0]), torch.tensor([2.0])))
try:
    torch.complex(torch.tensor([1]), torch.tensor([2]))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.complex(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64))
except Exception as e:
    print(type(e).__name__, e)

# ops that refuse complex
for name, fn in [("max", lambda: z.max()), ("lt", lambda: z < 1), ("floor", lambda: z.floor()),
                 ("clamp", lambda: z.clamp(0, 1)), ("sign", lambda: z.sign()), ("sgn", lambda: z.sgn()),
                 ("to float", lambda: z.float()), ("to int", lambda: z.long()),
                 ("eq", lambda: z == (1 + 2j)), ("mean", lambda: z.mean()), ("sum", lambda: z.sum())]:
    try:
        print(name, fn())
    except Exception as e:
        print(name, type(e).__name__, e)

# in-place complex into real is an error
x = torch.zeros(3)
try:
    x += z
except Exception as e:
    print(type(e).__name__, e)
zz = z.clone()
zz *= 2
zz += r64
print("in-place complex", zz, zz.dtype)
print("complex128", z.to(torch.complex128).dtype, z.cdouble() * r64)
print("isreal", torch.isreal(torch.tensor([1 + 0j, 1 + 1j])), torch.is_complex(z), torch.is_complex(r64))
