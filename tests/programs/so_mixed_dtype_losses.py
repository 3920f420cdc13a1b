# StackOverflow: float32 predictions vs float64 targets in losses, softmax/LayerNorm on integer
# tensors, embedding index dtypes, and building tensors from lists of numpy arrays.
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "->", out)
        except Exception as e:  # noqa: BLE001
            print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])
    for c in caught:
        text = str(c.message).splitlines()[0].split(" (Triggered internally")[0]
        print("   ", c.category.__name__ + ":", text)


# Q: target loaded with pandas/numpy is float64, prediction float32: what dtype is the loss?
pred = torch.tensor([0.5, 0.2, 0.9], requires_grad=True)
target64 = torch.from_numpy(np.array([1.0, 0.0, 1.0]))
for name, fn in [("mse_loss", F.mse_loss), ("l1_loss", F.l1_loss), ("smooth_l1_loss", F.smooth_l1_loss),
                 ("huber_loss", F.huber_loss), ("bce_with_logits", F.binary_cross_entropy_with_logits),
                 ("soft_margin", F.soft_margin_loss)]:
    attempt(name, lambda fn=fn: fn(pred, target64).dtype)
attempt("mse backward", lambda: (F.mse_loss(pred, target64).backward(), pred.grad.dtype)[1])
attempt("fix: target.float()", lambda: F.mse_loss(pred, target64.float()))
attempt("bce double target", lambda: F.binary_cross_entropy(torch.sigmoid(pred), target64))
attempt("bce weight shape", lambda: F.binary_cross_entropy(torch.sigmoid(pred), target64.float(), weight=torch.ones(2)))
attempt("kl_div long target", lambda: F.kl_div(pred.log(), torch.tensor([1, 0, 0]), reduction="sum"))
attempt("cosine long", lambda: F.cosine_similarity(torch.tensor([[1, 0]]), torch.tensor([[1, 1]])))

# Q: "softmax_lastdim_kernel_impl" not implemented for 'Long'
counts = torch.tensor([1, 2, 3])
attempt("softmax long", lambda: torch.softmax(counts, dim=0))
attempt("softmax fix", lambda: torch.softmax(counts.float(), dim=0))
attempt("softmax dtype arg", lambda: torch.softmax(counts, dim=0, dtype=torch.float64))
attempt("log_softmax long", lambda: F.log_softmax(counts, dim=0))
attempt("layernorm long", lambda: nn.LayerNorm(3)(counts.unsqueeze(0)))
attempt("batchnorm long", lambda: nn.BatchNorm1d(3)(torch.tensor([[1, 2, 3], [3, 2, 1]])))
attempt("sigmoid long", lambda: torch.sigmoid(counts))
attempt("relu long", lambda: F.relu(counts - 2))
attempt("gelu long", lambda: F.gelu(counts))
attempt("tanh bool", lambda: torch.tanh(torch.tensor([True, False])))

# Q: Embedding with byte / int / float indices
emb = nn.Embedding(4, 2)
with torch.no_grad():
    emb.weight.copy_(torch.arange(8.).view(4, 2))
attempt("embedding int64", lambda: emb(torch.tensor([3, 0])))
attempt("embedding int32", lambda: emb(torch.tensor([3, 0], dtype=torch.int32)))
attempt("embedding uint8", lambda: emb(torch.tensor([3, 0], dtype=torch.uint8)))
attempt("embedding bool", lambda: emb(torch.tensor([True, False])))

# Q: "Creating a tensor from a list of numpy.ndarrays is extremely slow"
rows = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
attempt("tensor(list of arrays)", lambda: torch.tensor(rows))
attempt("fix np.array first", lambda: torch.tensor(np.array(rows)))
attempt("float32 arrays", lambda: torch.tensor([np.array([1, 2], dtype=np.float32)]))
attempt("list of np scalars", lambda: torch.tensor([np.float64(1.5), np.float64(2.5)]))
attempt("list of np ints", lambda: torch.tensor([np.int32(1), np.int32(2)]))
attempt("FloatTensor(array)", lambda: torch.FloatTensor(np.array([1.5, 2.5])))
attempt("as_tensor float32", lambda: torch.as_tensor(np.array([1.5, 2.5]), dtype=torch.float32))
