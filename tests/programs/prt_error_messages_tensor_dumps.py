# Catching and printing errors whose messages embed a tensor dump: meshgrid given a 2-D grid
# (ATen's C++ "[ torch.FloatTensor{2,3} ]" form, wide ones in "Columns" blocks) and the Python repr
# that distribution argument validation shows.
import torch


def show(fn):
    try:
        fn()
        print("ok")
    except Exception as e:
        print(type(e).__name__, e)
        print("-" * 20)


xs = torch.linspace(0, 1, 3)
grid_x, grid_y = torch.meshgrid(xs, xs, indexing="ij")
print(grid_x)
# common bug: passing the already-built grid back to meshgrid
show(lambda: torch.meshgrid(grid_x, xs, indexing="ij"))
show(lambda: torch.meshgrid(grid_x, indexing="xy"))
show(lambda: torch.meshgrid(grid_x, torch.arange(3), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[1 + 2j, -3.5 - 1j]]), indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(6).view(2, 3), indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(8).view(2, 2, 2) * 100, indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[True, False]]), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[0, 200]], dtype=torch.uint8), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[1, -2]], dtype=torch.int32), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[-1000.5, 1.5]]), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[1e-3, 2e-3, 5e-3]], dtype=torch.float64), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[float("nan"), float("inf")], [-0.5, 2.0]]), indexing="ij"))
show(lambda: torch.meshgrid(torch.tensor([[1e10, 1.0]]), indexing="ij"))
show(lambda: torch.meshgrid(torch.zeros(0, 3), indexing="ij"))
# a wide grid: ATen splits it into column blocks of 80 characters
show(lambda: torch.meshgrid(torch.arange(24.).view(2, 12) / 7, indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(30).view(2, 15) * 3, indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(26.).view(1, 26) * 1000 + 0.5, indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(36.).view(3, 12) / 1e4, indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(48.).view(2, 2, 12) / 3, indexing="ij"))
show(lambda: torch.meshgrid(torch.arange(4, dtype=torch.float16).view(2, 2), indexing="ij"))

# expand errors name the tensor type the same ATen way
mask = torch.tensor([[True, False, True], [False, True, True]])
show(lambda: mask.expand(3))
show(lambda: torch.ones(2, 3, dtype=torch.complex64).expand(6))
show(lambda: torch.ones(2, 3).expand(6))

loc = torch.tensor([0.0, float("nan"), 1.5])
show(lambda: torch.distributions.Normal(loc, torch.ones(3)))
show(lambda: torch.distributions.Normal(torch.zeros(2), torch.tensor([1.0, -0.25])))
show(lambda: torch.distributions.Bernoulli(probs=torch.tensor([[0.2, 1.5], [0.5, 0.5]])))
show(lambda: torch.distributions.Categorical(probs=torch.tensor([0.5, -0.1, 0.6])))
d = torch.distributions.Poisson(torch.tensor([1.0, 2.0]))
show(lambda: d.log_prob(torch.tensor([0.5, 1.0])))
