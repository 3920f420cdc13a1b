# StackOverflow: "index 5 is out of bounds for dimension 0 with size 3", gather/scatter index
# dtype and shape errors, index_select with a float index, boolean mask shape mismatches.
import torch


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


t = torch.tensor([10., 20., 30.])
m = torch.arange(12.).view(3, 4)
attempt("t[5]", lambda: t[5])
attempt("t[-4]", lambda: t[-4])
attempt("t[-3]", lambda: t[-3])
attempt("m[3]", lambda: m[3])
attempt("m[0, 4]", lambda: m[0, 4])
attempt("m[:, 7]", lambda: m[:, 7])
attempt("m[1, 2, 0]", lambda: m[1, 2, 0])
attempt("t[[0, 5]]", lambda: t[[0, 5]])
attempt("t[tensor([0, 3])]", lambda: t[torch.tensor([0, 3])])
attempt("t[tensor(1.)]", lambda: t[torch.tensor(1.0)])
attempt("t[tensor([1., 2.])]", lambda: t[torch.tensor([1.0, 2.0])])
attempt("t[1.5]", lambda: t[1.5])
attempt("m[[0, 1], [0, 1, 2]]", lambda: m[[0, 1], [0, 1, 2]])
attempt("slice past end", lambda: t[1:10])
attempt("step negative", lambda: t[::-1])
attempt("flip fix", lambda: t.flip(0))
attempt("mask shape", lambda: m[torch.tensor([True, False])])
attempt("mask ok", lambda: m[m > 6])
attempt("mask dim1", lambda: m[:, torch.tensor([True, False, True, False])])
attempt("setitem bad", lambda: t.__setitem__(3, 1.0))
attempt("setitem shape", lambda: m.__setitem__(0, torch.ones(3)))
attempt("empty index", lambda: torch.tensor([])[0])
attempt("int of long", lambda: t[torch.tensor(2)])

# Q: gather — "gather(): Expected dtype int64 for index"
attempt("gather float idx", lambda: m.gather(1, torch.tensor([[0.], [1.], [2.]])))
attempt("gather int32 idx", lambda: m.gather(1, torch.tensor([[0], [1], [2]], dtype=torch.int32)))
attempt("gather oob", lambda: m.gather(1, torch.tensor([[0], [4], [1]])))
attempt("gather negative", lambda: m.gather(1, torch.tensor([[-1], [0], [1]])))
attempt("gather ndim", lambda: m.gather(1, torch.tensor([0, 1, 2])))
attempt("gather big", lambda: m.gather(1, torch.zeros(4, 1, dtype=torch.long)))
attempt("gather ok", lambda: m.gather(1, torch.tensor([[3], [2], [1]])))
attempt("gather dim", lambda: m.gather(2, torch.tensor([[0]])))
attempt("take_along_dim", lambda: torch.take_along_dim(m, torch.tensor([[1], [0], [3]]), dim=1))

# Q: scatter — one-hot encoding gone wrong
labels = torch.tensor([0, 2, 1])
attempt("scatter 1d idx", lambda: torch.zeros(3, 3).scatter_(1, labels, 1))
attempt("scatter fix", lambda: torch.zeros(3, 3).scatter_(1, labels.unsqueeze(1), 1))
attempt("scatter oob", lambda: torch.zeros(3, 3).scatter_(1, torch.tensor([[0], [3], [1]]), 1))
attempt("scatter float idx", lambda: torch.zeros(3, 3).scatter_(1, torch.tensor([[0.], [1.], [2.]]), 1))
attempt("scatter src shape", lambda: torch.zeros(3).scatter_(0, torch.tensor([0, 1, 2]), torch.ones(2)))
attempt("scatter_add float", lambda: torch.zeros(3).scatter_add(0, torch.tensor([0, 1]), torch.ones(2, dtype=torch.float64)))
attempt("one_hot", lambda: torch.nn.functional.one_hot(labels))
attempt("one_hot classes", lambda: torch.nn.functional.one_hot(labels, num_classes=2))
attempt("one_hot float", lambda: torch.nn.functional.one_hot(labels.float()))
attempt("one_hot negative", lambda: torch.nn.functional.one_hot(torch.tensor([-1, 0])))

# Q: index_select / take / index_add
attempt("index_select float", lambda: m.index_select(0, torch.tensor([0., 1.])))
attempt("index_select 2d", lambda: m.index_select(0, torch.tensor([[0, 1]])))
attempt("index_select oob", lambda: m.index_select(0, torch.tensor([0, 3])))
attempt("index_select list", lambda: m.index_select(0, [0, 1]))
attempt("take oob", lambda: torch.take(m, torch.tensor([12])))
attempt("index_add shape", lambda: torch.zeros(3, 2).index_add_(0, torch.tensor([0, 1]), torch.ones(3, 2)))
attempt("index_fill", lambda: m.clone().index_fill_(1, torch.tensor([0, 2]), -1.0))
attempt("index_put", lambda: torch.zeros(3).index_put_((torch.tensor([0, 0]),), torch.tensor([1., 2.]), accumulate=True))
