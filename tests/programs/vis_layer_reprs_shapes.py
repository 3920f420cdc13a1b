# The "print(model)" and shape-bookkeeping habit: reprs of conv / pool / norm / upsampling layers
# with non-default arguments, a forward-hook table of output shapes and receptive fields,
# parameter counts per layer, and conv output-size formulas checked against real outputs.
import torch
import torch.nn as nn

layers = [
    nn.Conv2d(3, 8, 3),
    nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=1, bias=False),
    nn.Conv2d(8, 8, 3, padding="same", groups=4, padding_mode="reflect"),
    nn.Conv2d(8, 16, 1, padding="valid"),
    nn.Conv2d(4, 4, 3, padding=1, padding_mode="circular"),
    nn.Conv1d(2, 4, 5, stride=2, padding=2, padding_mode="replicate"),
    nn.Conv3d(1, 2, (1, 3, 3), stride=(1, 2, 2)),
    nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1),
    nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1, bias=False),
    nn.ConvTranspose1d(2, 2, 3, dilation=2),
    nn.MaxPool2d(3, stride=2, padding=1),
    nn.MaxPool2d(2, ceil_mode=True, return_indices=True),
    nn.MaxPool2d((2, 3), dilation=2),
    nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False),
    nn.AvgPool2d(2, divisor_override=3),
    nn.AvgPool1d(4, ceil_mode=True),
    nn.AdaptiveAvgPool2d((1, None)),
    nn.AdaptiveMaxPool2d(7, return_indices=True),
    nn.AdaptiveAvgPool1d(5),
    nn.LPPool2d(2, 3, stride=2),
    nn.BatchNorm2d(8),
    nn.BatchNorm2d(8, eps=1e-3, momentum=None, affine=False),
    nn.BatchNorm1d(16, track_running_stats=False),
    nn.InstanceNorm2d(4, affine=True),
    nn.GroupNorm(2, 8),
    nn.LayerNorm([8, 4, 4], elementwise_affine=False),
    nn.LocalResponseNorm(3),
    nn.Upsample(scale_factor=2, mode="nearest"),
    nn.Upsample(size=(7, 9), mode="bilinear", align_corners=True),
    nn.Upsample(scale_factor=(1.5, 2.0), mode="bicubic"),
    nn.UpsamplingNearest2d(scale_factor=3),
    nn.UpsamplingBilinear2d(size=5),
    nn.PixelShuffle(2),
    nn.PixelUnshuffle(3),
    nn.ReflectionPad2d((1, 0, 2, 1)),
    nn.ZeroPad2d(2),
    nn.ConstantPad1d(3, 0.5),
    nn.ReplicationPad2d(1),
    nn.CircularPad2d((1, 1, 0, 0)),
    nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=2),
    nn.Fold(output_size=(4, 5), kernel_size=2),
    nn.Flatten(1),
    nn.Dropout2d(0.1),
    nn.ChannelShuffle(2),
]
for m in layers:
    n = sum(p.numel() for p in m.parameters())
    print(repr(m), n, [k for k, _ in m.named_buffers()])


def out_size(n, k, s=1, p=0, d=1):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


net = nn.Sequential(
    nn.Conv2d(3, 8, 7, stride=2, padding=3), nn.BatchNorm2d(8), nn.ReLU(),
    nn.MaxPool2d(3, stride=2, padding=1),
    nn.Conv2d(8, 16, 3, padding=2, dilation=2), nn.ReLU(),
    nn.Conv2d(16, 16, 3, stride=2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
)
rows = []
hooks = [m.register_forward_hook(lambda mod, inp, out, name=name: rows.append((name, type(mod).__name__, tuple(out.shape))))
         for name, m in net.named_children()]
net(torch.zeros(2, 3, 37, 41))
for h in hooks:
    h.remove()
for r in rows:
    print(f"{r[0]:>3} {r[1]:<18} {str(r[2]):<20}")
print(len(net._forward_hooks), net[0]._forward_hooks)

rf, jump = 1, 1
for m in net:
    if isinstance(m, (nn.Conv2d, nn.MaxPool2d)):
        k = m.kernel_size if isinstance(m.kernel_size, int) else m.kernel_size[0]
        d = m.dilation if isinstance(m.dilation, int) else m.dilation[0]
        s = m.stride if isinstance(m.stride, int) else m.stride[0]
        rf += (k - 1) * d * jump
        jump *= s
        print(type(m).__name__, m.kernel_size, m.stride, m.padding, m.dilation, "rf", rf, "jump", jump)
h = out_size(37, 7, 2, 3)
h = out_size(h, 3, 2, 1)
h = out_size(h, 3, 1, 2, 2)
print("formula", out_size(h, 3, 2), rows[6][2])
total = sum(p.numel() for p in net.parameters() if p.requires_grad)
print(f"Total params: {total:,}", {n: tuple(p.shape) for n, p in net.named_parameters() if "0." in n})
