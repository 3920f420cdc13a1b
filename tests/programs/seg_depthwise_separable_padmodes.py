# Lightweight segmentation encoder blocks (MobileNet/ENet style): depthwise separable convs with
# groups=in_channels, padding_mode="reflect"/"replicate"/"circular", strided and dilated depthwise convs.
import torch
import torch.nn as nn


class DSConv(nn.Module):
    def __init__(self, cin, cout, stride=1, dilation=1, padding_mode="zeros"):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride=stride, padding=dilation, dilation=dilation, groups=cin,
                            bias=False, padding_mode=padding_mode)
        self.bn = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1)
        self.act = nn.ReLU6()

    def forward(self, x):
        return self.act(self.pw(self.act(self.bn(self.dw(x)))))


def init(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)


x = (torch.arange(1 * 4 * 7 * 7, dtype=torch.float32).view(1, 4, 7, 7) / 50).sin().requires_grad_()
for mode in ["zeros", "reflect", "replicate", "circular"]:
    blk = DSConv(4, 6, padding_mode=mode)
    init(blk)
    blk.eval()
    y = blk(x)
    print(mode, y.shape, f"{y.sum().item():.4f}", blk.dw)
    g, = torch.autograd.grad(y.sum(), x)
    print(g[0, 1, 0].numpy().round(4))

blk = DSConv(4, 8, stride=2, dilation=2, padding_mode="reflect")
init(blk)
print(blk)
y = blk(x)
print(y.shape, blk.dw.weight.shape, blk.dw.groups)
y.mean().backward()
print(blk.dw.weight.grad[2, 0].numpy().round(5))
print(blk.bn.weight.grad.numpy().round(5))
print(sorted(blk.state_dict().keys()))

mult = nn.Conv2d(4, 8, 3, groups=4, padding=1, padding_mode="replicate", bias=False)
init(mult)
print(mult.weight.shape, mult(x).shape, f"{mult(x)[0, 5].sum().item():.4f}")
for bad in [dict(groups=3), dict(padding_mode="reflect", padding="same", dilation=2)]:
    try:
        c = nn.Conv2d(4, 6, 3, **bad)
        print(c, c(x).shape)
    except Exception as e:
        print(type(e).__name__, e)
try:
    nn.Conv2d(4, 4, 3, padding_mode="mirror")
except Exception as e:
    print(type(e).__name__, str(e).split(",")[-1])
