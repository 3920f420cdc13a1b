# Defensive checks a feature-store loader hits when it builds EmbeddingBag inputs by hand:
# bad offsets, out-of-vocabulary ids, wrong dtypes, padding_idx outside the table.
import torch
import torch.nn as nn
import torch.nn.functional as F

table = torch.arange(15, dtype=torch.float32).view(5, 3) / 10
ids = torch.tensor([1, 4, 2, 0, 3])


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except (RuntimeError, ValueError, IndexError, NotImplementedError, AssertionError) as e:
        print(label, "->", type(e).__name__, e)


attempt("ok", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="sum"))
attempt("ok int32", lambda: F.embedding_bag(ids.int(), table, torch.tensor([0, 2], dtype=torch.int32), mode="mean"))
attempt("mixed int", lambda: F.embedding_bag(ids.int(), table, torch.tensor([0, 2]), mode="sum"))
attempt("first offset", lambda: F.embedding_bag(ids, table, torch.tensor([1, 3])))
attempt("offset past end", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2, 6]), mode="sum"))
attempt("csr past end", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2, 7]), mode="sum", include_last_offset=True))
attempt("float offsets", lambda: F.embedding_bag(ids, table, torch.tensor([0.0, 2.0])))
for mode in ["sum", "mean", "max"]:
    attempt(f"oov {mode}", lambda: F.embedding_bag(torch.tensor([1, 5, 2]), table, torch.tensor([0, 1]), mode=mode))
    attempt(f"negative {mode}", lambda: F.embedding_bag(torch.tensor([[1, -1]]), table, mode=mode))
attempt("int table", lambda: F.embedding_bag(ids, table.long() + 1, torch.tensor([0, 2]), mode="sum"))
attempt("psw dtype", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="sum", per_sample_weights=torch.ones(5, dtype=torch.float64)))
attempt("psw mode", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="mean", per_sample_weights=torch.ones(5)))
attempt("padding ok", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="sum", padding_idx=-1))
attempt("padding big", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="sum", padding_idx=5))
attempt("padding small", lambda: F.embedding_bag(ids, table, torch.tensor([0, 2]), mode="max", padding_idx=-6))
attempt("module padding", lambda: nn.EmbeddingBag(5, 3, padding_idx=9))
attempt("2d offsets", lambda: F.embedding_bag(ids.view(1, 5), table, torch.tensor([0])))
attempt("3d input", lambda: F.embedding_bag(ids.view(1, 1, 5), table))
attempt("embedding oov", lambda: F.embedding(torch.tensor([5]), table))
attempt("embedding float", lambda: F.embedding(torch.tensor([1.0]), table))
bag = nn.EmbeddingBag.from_pretrained(table, mode="sum", freeze=False, padding_idx=0)
out = bag(ids, torch.tensor([0, 2]))
out.sum().backward()
print(out)
print(bag.weight.grad)
