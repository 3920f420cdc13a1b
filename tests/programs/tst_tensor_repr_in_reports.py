# Test reports that print tensors with special values: nan/inf/-0.0, huge and tiny magnitudes,
# printoptions (precision, sci_mode, threshold, edgeitems, linewidth) restored after each test.
import torch

nan, inf = float("nan"), float("inf")

cases = {
    "special": torch.tensor([0.0, -0.0, nan, inf, -inf, 1.5]),
    "neg zero only": torch.tensor([-0.0, 0.0]),
    "tiny": torch.tensor([1e-10, 2e-12, 3.0]),
    "huge": torch.tensor([1e10, 1.0, -2.5e8]),
    "mixed ints as float": torch.tensor([1.0, 2.0, 1000000.0]),
    "float64": torch.tensor([1 / 3, 2 / 3], dtype=torch.float64),
    "float16": torch.tensor([0.1, 65504.0], dtype=torch.float16),
    "int": torch.tensor([-3, 0, 12345678]),
    "bool": torch.tensor([[True, False], [False, True]]),
    "complex": torch.tensor([1 + 2j, -0.5 - 1e-3j]),
    "complex nan": torch.tensor([complex(nan, 1.0), complex(1.0, inf)]),
    "empty": torch.empty(0, 3),
    "scalar nan": torch.tensor(nan),
    "scalar -0": torch.tensor(-0.0),
    "requires grad": torch.tensor([1.0, -0.0], requires_grad=True),
    "all nan": torch.full((2, 2), nan),
    "all inf": torch.tensor([inf, -inf]),
    "nan with tiny": torch.tensor([nan, 1e-9, 1.0]),
}
for name, t in cases.items():
    print(f"--- {name}")
    print(t)

base = torch.linspace(-1, 1, 7) * torch.tensor([1e-5, 1, 1e5, 1, 1, 1, 1])
for opts in [dict(precision=2), dict(sci_mode=False), dict(sci_mode=True, precision=3),
             dict(threshold=5, edgeitems=2), dict(linewidth=30), dict(profile="short")]:
    torch.set_printoptions(**opts)
    print(f"--- {opts}")
    print(base)
    print(torch.arange(20.0).reshape(4, 5) / 3)
    torch.set_printoptions(profile="default")

print("--- after reset")
print(base)
print(repr(torch.tensor([nan, -0.0], dtype=torch.float64)))
print(str(torch.tensor([[inf, 1e-20]])))
print(f"{torch.tensor(-0.0).item()} {torch.tensor(nan).item()} {torch.tensor([inf]).tolist()}")
