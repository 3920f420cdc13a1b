# Edge cases that show up when a batch filter selects nothing: printing empty tensors of many
# shapes/dtypes, reductions over them (sum/mean/max errors), 0-d results and their .item()/.tolist().
import torch

scores = torch.tensor([0.2, 0.9, 0.4, 0.95])
boxes = torch.arange(16.).view(4, 4)
keep = scores > 0.99
print(keep, keep.any(), keep.sum())
print(scores[keep], boxes[keep], boxes[keep].shape)
print(boxes[keep].long(), boxes[keep][:, :2].to(torch.float16))
print(torch.nonzero(keep), torch.nonzero(keep, as_tuple=True))
print(torch.where(keep)[0], keep.nonzero().squeeze(1))
print(torch.empty(0, 3, 0), torch.zeros(2, 0, dtype=torch.complex128), torch.ones(0, 1, dtype=torch.bool))
print(torch.empty(0, requires_grad=True), torch.zeros(0, 2, requires_grad=True).sum(0))
print(torch.zeros(0, dtype=torch.int8), torch.zeros(3, 0, dtype=torch.uint8).T)

e = scores[keep]
print(e.sum(), e.prod(), e.mean(), e.numel(), e.dim(), e.tolist())
print(boxes[keep].sum(0), boxes[keep].mean(1), boxes[keep].sum(1))
for name, fn in [("max", lambda: e.max()), ("argmax", lambda: e.argmax()), ("min dim", lambda: boxes[keep].min(0)),
                 ("item", lambda: e.item()), ("topk", lambda: e.topk(1)), ("std", lambda: e.std())]:
    try:
        print(name, fn())
    except Exception as ex:
        print(name, type(ex).__name__, ex)
print(boxes[keep].max(1), boxes[keep].amax(1), boxes[keep].logsumexp(1))
print(torch.cat([e, scores[:1]]), torch.stack([e, e]), torch.cat([boxes[keep], boxes[:1]]))

z = scores.max()
print(z, z.shape, z.dim(), z.item(), z.tolist(), float(z), z.numel())
print(torch.tensor(7).tolist(), torch.tensor(True).item(), torch.tensor(2.5, dtype=torch.float64).item())
print(z.unsqueeze(0), z.view(1, 1), z.expand(3), z.reshape(()), z[None, None])
print(torch.tensor(3.0).requires_grad_() * 2, torch.tensor(1 + 1j), torch.tensor(0, dtype=torch.uint8))
print(scores.argmax(), scores.argmax().item(), scores[scores.argmax()], boxes[1, 2], boxes[1][2].item())
print([scores.sum(), scores.mean()], (scores.min(), scores.max()))
print(torch.zeros(()), torch.ones(()).shape, torch.full((), 4, dtype=torch.int32))
