# AnchorGenerator written by hand: base anchors from scales x aspect ratios, shifts from
# arange + meshgrid over the feature map, broadcast add and reshape, plus repeat_interleave variants.
import torch

torch.set_printoptions(precision=3, sci_mode=False)


def generate_anchors(scales, aspect_ratios, dtype=torch.float32):
    scales = torch.as_tensor(scales, dtype=dtype)
    aspect_ratios = torch.as_tensor(aspect_ratios, dtype=dtype)
    h_ratios = torch.sqrt(aspect_ratios)
    w_ratios = 1 / h_ratios
    ws = (w_ratios[:, None] * scales[None, :]).view(-1)
    hs = (h_ratios[:, None] * scales[None, :]).view(-1)
    base_anchors = torch.stack([-ws, -hs, ws, hs], dim=1) / 2
    return base_anchors.round()


def grid_anchors(base, grid_size, stride):
    gh, gw = grid_size
    shifts_x = torch.arange(0, gw, dtype=torch.int32) * stride[1]
    shifts_y = torch.arange(0, gh, dtype=torch.int32) * stride[0]
    shift_y, shift_x = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
    shift_x = shift_x.reshape(-1)
    shift_y = shift_y.reshape(-1)
    shifts = torch.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
    return (shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4)


base = generate_anchors((32, 64), (0.5, 1.0, 2.0))
print(base)
anchors = grid_anchors(base, (2, 3), (16, 16))
print(anchors.shape, anchors.dtype)
print(anchors[:8])
print(anchors[-3:])

# "xy" meshgrid, centers, and the cartesian product of scales x ratios
xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(xs, ys, sep="\n")
centers = torch.stack([xs, ys], -1).float().add(0.5).mul(8).view(-1, 2)
print(centers)
combos = torch.cartesian_prod(torch.tensor([32.0, 64.0]), torch.tensor([0.5, 1.0, 2.0]))
print(combos)
# YOLO-like layout: repeat centers per anchor with repeat_interleave, tile sizes with repeat
num_a = 3
sizes = torch.tensor([[10., 13.], [16., 30.], [33., 23.]])
c_rep = centers.repeat_interleave(num_a, dim=0)
s_rep = sizes.repeat(centers.size(0), 1)
boxes = torch.cat([c_rep - s_rep / 2, c_rep + s_rep / 2], dim=1)
print(boxes.shape, boxes[:4])
print(torch.repeat_interleave(torch.tensor([2, 1, 3])))
print(torch.arange(4).repeat_interleave(torch.tensor([1, 0, 2, 1])))
print(torch.tensor([[1, 2], [3, 4]]).repeat_interleave(2), torch.tensor([[1, 2], [3, 4]]).repeat_interleave(torch.tensor([1, 2]), dim=0))
# anchors whose center lies inside the image, by boolean masking
cx = (anchors[:, 0] + anchors[:, 2]) / 2
inside = (anchors[:, 0] >= -16) & (anchors[:, 2] <= 64)
print(inside.sum(), inside.nonzero().view(-1)[:6], cx.dtype)
