# Forum question: "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)" and
# "mat1 and mat2 must have the same dtype" — flattening mistakes, numpy float64 inputs, fixes.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


fc = nn.Linear(5, 2)
x = torch.arange(12, dtype=torch.float32).view(4, 3)
attempt("Linear(5,2) on 4x3", lambda: fc(x))
attempt("Linear on 1-D wrong", lambda: fc(torch.ones(3)))
attempt("Linear on 3-D wrong", lambda: fc(torch.ones(2, 4, 3)))
attempt("Linear on 0-D", lambda: fc(torch.tensor(1.0)))
attempt("Linear on 1-D ok", lambda: fc(torch.ones(5)).shape)
attempt("Linear on 4-D ok", lambda: fc(torch.ones(2, 3, 4, 5)).shape)

# numpy arrays are float64
arr = np.linspace(0, 1, 10).reshape(2, 5)
attempt("from_numpy float64", lambda: fc(torch.from_numpy(arr)))
attempt("torch.tensor(arr) float64", lambda: fc(torch.tensor(arr)))
attempt("fix .float()", lambda: fc(torch.from_numpy(arr).float()).shape)
attempt("model.double()", lambda: nn.Linear(5, 2).double()(torch.from_numpy(arr)).dtype)
attempt("long input", lambda: fc(torch.arange(10).view(2, 5)))
attempt("half input", lambda: fc(torch.ones(2, 5).half()))
attempt("int tensor matmul", lambda: torch.ones(2, 3, dtype=torch.int64) @ torch.ones(3, 2))
attempt("mm float @ double", lambda: torch.mm(torch.ones(2, 3), torch.ones(3, 2, dtype=torch.float64)))
attempt("matmul 1d double", lambda: torch.matmul(torch.ones(3), torch.ones(3, dtype=torch.float64)))
attempt("bmm dtype", lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 2).double()))
attempt("F.linear bias dtype", lambda: F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.ones(4).double()))

# CNN flatten mistake: forgot to flatten / wrong in_features
feat = torch.zeros(8, 16, 5, 5)
head = nn.Linear(16 * 4 * 4, 10)
attempt("forgot flatten", lambda: head(feat))
attempt("wrong in_features", lambda: head(feat.view(8, -1)))
attempt("view(-1, 256)", lambda: head(feat.view(-1, 256)).shape)
head_ok = nn.Linear(16 * 5 * 5, 10)
attempt("fixed with flatten", lambda: head_ok(torch.flatten(feat, 1)).shape)

# matmul errors people hit when writing attention by hand
q = torch.ones(2, 4, 8)
k = torch.ones(2, 4, 8)
attempt("q @ k (no transpose)", lambda: q @ k)
attempt("torch.mm on 3-D", lambda: torch.mm(q, k.transpose(1, 2)))
attempt("bmm on 2-D", lambda: torch.bmm(q[0], k[0].t()))
attempt("bmm batch mismatch", lambda: torch.bmm(q, torch.ones(3, 8, 4)))
attempt("q @ k.T fixed", lambda: (q @ k.transpose(-2, -1)).shape)
attempt("matmul 0-d", lambda: torch.matmul(torch.tensor(2.0), q))
attempt("mv wrong", lambda: torch.mv(torch.ones(3, 4), torch.ones(3)))
attempt("dot wrong size", lambda: torch.dot(torch.ones(3), torch.ones(4)))
attempt("dot 2-D", lambda: torch.dot(torch.ones(2, 2), torch.ones(2, 2)))
attempt("outer ok", lambda: torch.outer(torch.ones(3), torch.ones(2)).shape)
attempt("matmul broadcast mismatch", lambda: (torch.ones(2, 3, 4) @ torch.ones(3, 4, 5)))
attempt("matmul broadcast ok", lambda: (torch.ones(2, 1, 3, 4) @ torch.ones(5, 4, 6)).shape)
