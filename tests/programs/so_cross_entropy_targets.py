# StackOverflow: CrossEntropyLoss / NLLLoss target problems — float targets, one-hot targets,
# wrong shapes, 0-d targets, class index out of range, ignore_index, and the usual fixes.
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 1.2, 0.3], [-0.5, 0.0, 2.5], [1.0, 1.0, 1.0]],
                      requires_grad=True)
target = torch.tensor([0, 1, 2, 1])
crit = nn.CrossEntropyLoss()
print(crit(logits, target))

# Q: "expected scalar type Long but found Float" (targets built with torch.Tensor)
attempt("torch.Tensor target", lambda: crit(logits, torch.Tensor([0, 1, 2, 1])))
attempt("target.long() fix", lambda: crit(logits, torch.Tensor([0, 1, 2, 1]).long()))
attempt("nll float target", lambda: F.nll_loss(F.log_softmax(logits, 1), target.float()))
attempt("nll double input", lambda: F.nll_loss(F.log_softmax(logits, 1).double(), target))

# Q: one-hot targets — class probabilities are accepted since 1.10, but must be float
onehot = F.one_hot(target, 3)
attempt("one-hot long", lambda: crit(logits, onehot))
attempt("one-hot float", lambda: crit(logits, onehot.float()))
attempt("argmax fix", lambda: crit(logits, onehot.argmax(dim=1)))
attempt("prob wrong shape", lambda: crit(logits, torch.full((4, 2), 0.5)))
attempt("prob double", lambda: crit(logits, onehot.double()))

# Q: wrong target shapes
attempt("target [N,1]", lambda: crit(logits, target.view(-1, 1)))
attempt("target squeeze fix", lambda: crit(logits, target.view(-1, 1).squeeze(1)))
attempt("batch mismatch", lambda: crit(logits, torch.tensor([0, 1])))
attempt("0-d target, 2-d input", lambda: crit(logits[:1], torch.tensor(1)))
attempt("0-d target, 1-d input", lambda: crit(logits[0], torch.tensor(1)))
attempt("1-d target, 1-d input", lambda: crit(logits[0], torch.tensor([1])))
attempt("unsqueeze fix", lambda: crit(logits[0].unsqueeze(0), torch.tensor([1])))
attempt("3d input ok", lambda: crit(logits.view(2, 2, 3).transpose(1, 2), target.view(2, 2)))
attempt("3d input wrong", lambda: crit(logits.view(2, 2, 3), target.view(2, 2)))
attempt("nll 3d 1d", lambda: F.nll_loss(torch.zeros(2, 3, 4), torch.tensor([0, 1])))
attempt("nll 0d input", lambda: F.nll_loss(torch.tensor(0.5), torch.tensor(0)))

# Q: "Target 3 is out of bounds." / labels starting at 1
attempt("label 3", lambda: crit(logits, torch.tensor([1, 2, 3, 1])))
attempt("label -1", lambda: crit(logits, torch.tensor([0, -1, 2, 1])))
attempt("label -100 ignored", lambda: crit(logits, torch.tensor([0, -100, 2, 1])))
attempt("nll label 5", lambda: F.nll_loss(F.log_softmax(logits, 1), torch.tensor([5, 0, 0, 0])))
attempt("ignore_index=1", lambda: nn.CrossEntropyLoss(ignore_index=1)(logits, target))
attempt("all ignored", lambda: nn.CrossEntropyLoss(ignore_index=1)(logits[1:2], target[1:2]))
attempt("weight wrong size", lambda: nn.CrossEntropyLoss(weight=torch.ones(4))(logits, target))
attempt("weight ok", lambda: nn.CrossEntropyLoss(weight=torch.tensor([1., 2., 0.5]))(logits, target))
attempt("reduction none", lambda: nn.CrossEntropyLoss(reduction="none")(logits, target))
attempt("reduction bad", lambda: nn.CrossEntropyLoss(reduction="avg")(logits, target))
attempt("label_smoothing", lambda: nn.CrossEntropyLoss(label_smoothing=0.1)(logits, target))
attempt("label_smoothing bad", lambda: nn.CrossEntropyLoss(label_smoothing=1.5)(logits, target))

# Q: softmax applied twice / BCE on class indices
attempt("softmax then CE", lambda: crit(F.softmax(logits, dim=1), target))
attempt("BCE on indices", lambda: F.binary_cross_entropy(torch.sigmoid(logits), target))
attempt("BCEWithLogits shape", lambda: nn.BCEWithLogitsLoss()(logits, target.float()))

loss = crit(logits, target)
loss.backward()
print(loss.grad_fn.name(), logits.grad)
