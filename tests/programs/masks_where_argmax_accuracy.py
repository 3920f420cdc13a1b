# Accuracy and masking idioms from Q&A answers: argmax accuracy, top-k accuracy, torch.where,
# masked_fill(-inf) before softmax, masked means over padding, and gradients through where.
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0, 0.1],
                       [0.1, 0.2, 3.0, -0.5],
                       [1.0, 1.0, 0.0, 0.0],     # a tie: argmax picks the first
                       [-2.0, 0.0, 0.5, 0.4],
                       [0.3, 2.5, 0.2, 2.4]])
labels = torch.tensor([0, 2, 1, 3, 1])

preds = logits.argmax(dim=1)
print(preds, preds.dtype)
correct = (preds == labels)
print(correct, correct.sum(), correct.sum().item() / len(labels))
print(correct.float().mean(), (preds == labels).double().mean().item())
print(torch.argmax(logits, dim=1, keepdim=True).shape, logits.argmax(), logits.argmin(dim=0))
values, indices = torch.max(logits, 1)
print(values, indices)

# Top-k accuracy (topk does not promise an order among ties: break the tie first)
no_ties = logits.clone()
no_ties[2, 1] = 0.9
_, top2 = no_ties.topk(2, dim=1)
print(top2)
print((top2 == labels.unsqueeze(1)).any(dim=1).float().mean())

# Binary predictions with a threshold
probs = torch.sigmoid(torch.tensor([-1.0, 0.0, 0.3, 2.0, -0.2]))
targets = torch.tensor([0.0, 1.0, 1.0, 1.0, 0.0])
pred_bin = (probs > 0.5).float()
print(pred_bin, (pred_bin == targets).sum().item(), torch.where(probs > 0.5, 1, 0))

# torch.where: elementwise choice, scalar arguments, and the single-argument form
x = torch.tensor([[-1.0, 2.0, 0.0], [3.0, -4.0, 5.0]])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, x, 0.0), torch.where(x > 0, 1.0, -1.0))
print(torch.where(x < 0))
print(torch.nonzero(x < 0), (x < 0).nonzero(as_tuple=True))
print(x.where(x != 0, torch.tensor(9.0)))

# masked_fill with -inf before softmax: padded positions get zero attention
scores = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5]])
lengths = torch.tensor([2, 3])
mask = torch.arange(4).unsqueeze(0) >= lengths.unsqueeze(1)
print(mask)
masked = scores.masked_fill(mask, float("-inf"))
print(masked)
attn = F.softmax(masked, dim=-1)
print(attn, attn.sum(-1))
scores.masked_fill_(mask, -1e9)
print(scores)

# Mean over valid positions only
values = torch.tensor([[1.0, 2.0, 30.0, 40.0], [3.0, 4.0, 5.0, 60.0]])
valid = (~mask).float()
print((values * valid).sum(1) / valid.sum(1), values.masked_fill(mask, 0).sum(1) / lengths)

# Gradients flow only through the selected branch of where
w = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
out = torch.where(w > 0, w ** 2, -w)
out.sum().backward()
print(out, w.grad)

# The NaN trap: a masked-out branch that is NaN still poisons the gradient
z = torch.tensor([-1.0, 4.0], requires_grad=True)
safe = torch.where(z > 0, z, torch.ones_like(z))
torch.where(z > 0, torch.sqrt(z), torch.zeros_like(z)).sum().backward()
print(z.grad)
z.grad = None
torch.where(z > 0, torch.sqrt(safe), torch.zeros_like(z)).sum().backward()
print(z.grad)

# masked_fill is differentiable with respect to the input
m = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
filled = m.masked_fill(torch.tensor([False, True, False]), 0.0)
(filled * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(filled, m.grad)

# Per-class accuracy with boolean indexing
num_classes = 4
for c in range(num_classes):
    sel = labels == c
    if sel.any():
        print(c, sel.sum().item(), (preds[sel] == c).float().mean().item())
    else:
        print(c, 0, None)
