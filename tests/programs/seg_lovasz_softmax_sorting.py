# Lovasz-softmax loss (Berman et al.) as copied into segmentation repos: per-class errors sorted with
# torch.sort(descending=True), lovasz_grad via cumsum, dot product; plus the binary hinge variant.
import torch
import torch.nn.functional as F


def lovasz_grad(gt_sorted):
    p = len(gt_sorted)
    gts = gt_sorted.sum()
    intersection = gts - gt_sorted.float().cumsum(0)
    union = gts + (1 - gt_sorted).float().cumsum(0)
    jaccard = 1. - intersection / union
    if p > 1:
        jaccard[1:p] = jaccard[1:p] - jaccard[0:-1]
    return jaccard


def flatten_probas(probas, labels, ignore=None):
    B, C, H, W = probas.size()
    probas = probas.permute(0, 2, 3, 1).contiguous().view(-1, C)
    labels = labels.view(-1)
    if ignore is None:
        return probas, labels
    valid = (labels != ignore)
    vprobas = probas[valid.nonzero().squeeze()]
    return vprobas, labels[valid]


def lovasz_softmax_flat(probas, labels, classes="present"):
    C = probas.size(1)
    losses = []
    for c in range(C):
        fg = (labels == c).float()
        if classes == "present" and fg.sum() == 0:
            continue
        errors = (fg - probas[:, c]).abs()
        errors_sorted, perm = torch.sort(errors, 0, descending=True)
        fg_sorted = fg[perm.data]
        losses.append(torch.dot(errors_sorted, lovasz_grad(fg_sorted)))
    return torch.stack(losses).mean()


def lovasz_hinge_flat(logits, labels):
    signs = 2. * labels.float() - 1.
    errors = (1. - logits * signs)
    errors_sorted, perm = torch.sort(errors, dim=0, descending=True)
    gt_sorted = labels[perm]
    grad = lovasz_grad(gt_sorted)
    return torch.dot(F.relu(errors_sorted), grad)


B, C, H, W = 2, 3, 4, 4
x = (torch.sin(torch.arange(B * C * H * W, dtype=torch.float32) * 0.61) * 2).view(B, C, H, W).requires_grad_()
labels = (torch.arange(B * H * W) % 5).view(B, H, W)
labels[labels == 4] = 255
probas = F.softmax(x, dim=1)
vp, vl = flatten_probas(probas, labels, ignore=255)
print(vp.shape, vl.shape, vl.bincount())
loss = lovasz_softmax_flat(vp, vl)
loss.backward()
print(f"{loss.item():.6f}", loss.grad_fn.name())
print(x.grad[0, :, 0].numpy().round(5))

y = torch.linspace(-2, 2, 12).requires_grad_()
lab = (torch.arange(12) % 3 == 0).long()
lh = lovasz_hinge_flat(y, lab)
lh.backward()
print(f"{lh.item():.6f}", y.grad)
s, idx = torch.sort(torch.tensor([1.0, 3.0, 3.0, 2.0, 1.0]), descending=True, stable=True)
print(s, idx)
print(torch.sort(torch.tensor([[0.2, 0.1], [0.1, 0.3]]), dim=0, descending=True))
