# Habits carried over from numpy/scipy NLP code: torch.logsumexp called without dim (scipy's
# logsumexp reduces everything by default), dims and lengths that are numpy integers (from
# np.argmax / np.array), softmax called with a tuple dim, and class weights built in float64 by
# numpy -- each error printed, then the corrected call.
import numpy as np
import torch
import torch.nn.functional as F

scores = torch.linspace(-2, 2, 12).reshape(3, 4)


def attempt(name, fn):
    try:
        out = fn()
        print(name, "->", out)
    except Exception as e:
        print(name, "->", type(e).__name__, e)


attempt("logsumexp no dim", lambda: torch.logsumexp(scores))
attempt("method no dim", lambda: scores.logsumexp())
attempt("logsumexp all dims", lambda: torch.logsumexp(scores, dim=(0, 1)))
attempt("logsumexp float dim", lambda: torch.logsumexp(scores, 1.0))
attempt("softmax tuple dim", lambda: F.softmax(scores, (1,)))
attempt("log_softmax list dim", lambda: F.log_softmax(scores, [1]))

lengths = np.array([4, 2, 3])
longest_axis = np.argmax(scores.shape)          # numpy int64
print(type(longest_axis).__name__, longest_axis)
attempt("softmax np dim", lambda: F.softmax(scores, dim=longest_axis))
attempt("max np dim", lambda: scores.max(longest_axis))
attempt("amax np dim", lambda: scores.amax(np.int64(0)))
attempt("sum np dim", lambda: scores.sum(np.int64(1)))
attempt("lse np dim", lambda: scores.logsumexp(np.int64(-1)))
mask = torch.arange(4)[None, :] < torch.from_numpy(lengths)[:, None]
print(mask)
masked = scores.masked_fill(~mask, float("-inf"))
attempt("masked log_softmax", lambda: F.log_softmax(masked, dim=np.int64(1)))
attempt("masked lse", lambda: torch.logsumexp(masked, dim=np.int64(1)))

counts = np.bincount([0, 0, 0, 1, 2, 2, 3, 0], minlength=4)
w = torch.from_numpy(counts.sum() / (4 * counts))
print(w.dtype, w)
y = torch.tensor([0, 3, 2])
attempt("cross_entropy f64 weight", lambda: F.cross_entropy(scores, y, weight=w))
attempt("cross_entropy float weight", lambda: F.cross_entropy(scores, y, weight=w.float()))
attempt("double logits", lambda: F.cross_entropy(scores.double(), y, weight=w))
