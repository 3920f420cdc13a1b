# Forward-mode AD through code that mutates tensors, the way simulation / preprocessing code is
# written: in-place arithmetic on duals, writing duals into preallocated buffers (slice and index
# assignment, index_add_, scatter_, masked_fill_), nn.ReLU(inplace=True), and torch.cat/stack.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn

torch.set_default_dtype(torch.float64)

x0 = torch.linspace(-1, 1, 6)
tx = torch.arange(6.0) / 6

with fwAD.dual_level():
    x = fwAD.make_dual(x0, tx)

    y = x.clone()
    y.mul_(2).add_(1).sin_()
    print("chain in-place:", fwAD.unpack_dual(y).tangent)

    buf = torch.zeros(3, 6)
    buf[0] = x
    buf[1, ::2] = x[1::2] ** 2
    buf[2][x0 > 0] = torch.exp(x[x0 > 0])
    print("buffer tangent\n", fwAD.unpack_dual(buf).tangent)

    acc = torch.zeros(3)
    acc.index_add_(0, torch.tensor([0, 1, 2, 0, 1, 2]), x * x)
    print("index_add_:", fwAD.unpack_dual(acc).tangent)

    sc = torch.zeros(2, 6).scatter_(0, torch.tensor([[0, 1, 0, 1, 0, 1]]), x.unsqueeze(0))
    print("scatter_:", fwAD.unpack_dual(sc).tangent)

    m = x.clone().masked_fill_(x0 < 0, 0.0)
    print("masked_fill_:", fwAD.unpack_dual(m).tangent)

    h = nn.Sequential(nn.Linear(6, 4), nn.ReLU(inplace=True), nn.Linear(4, 2))
    with torch.no_grad():
        for i, p in enumerate(h.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p))
    out = h(x)
    print("mlp with inplace relu:", fwAD.unpack_dual(out).tangent)

    z = torch.cat([x[:2], torch.ones(2), x[-2:] * 3])
    s = torch.stack([x, torch.zeros(6)], dim=1)
    print("cat:", fwAD.unpack_dual(z).tangent)
    print("stack column 1 tangent zero:", bool((fwAD.unpack_dual(s).tangent[:, 1] == 0).all()))

    state = torch.zeros(6)
    for step in range(4):  # explicit Euler with in-place state update
        state += 0.1 * (x - state)
    print("euler state tangent:", fwAD.unpack_dual(state).tangent)

    v = x.view(2, 3)
    v[0].zero_()
    print("zero_ through a view:", fwAD.unpack_dual(x).tangent)

    plain = torch.ones(6)
    plain.copy_(fwAD.make_dual(x0, torch.ones(6)))
    print("copy_ a dual into a plain tensor:", fwAD.unpack_dual(plain).tangent)
