# StackOverflow: view vs reshape, "Dimension out of range", cat/stack size errors, permute misuse.
import torch


def attempt(label, fn):
    try:
        out = fn()
        if isinstance(out, torch.Tensor):
            print(label, "->", tuple(out.shape), out.is_contiguous())
        else:
            print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e))


x = torch.arange(24.).view(2, 3, 4)
# Q: "view size is not compatible with input tensor's size and stride"
attempt("permute view", lambda: x.permute(0, 2, 1).view(2, 12))
attempt("permute contiguous view", lambda: x.permute(0, 2, 1).contiguous().view(2, 12))
attempt("permute reshape", lambda: x.permute(0, 2, 1).reshape(2, 12))
attempt("transpose view last", lambda: x.transpose(1, 2).view(2, 4, 3))
attempt("transpose view merge ok", lambda: x.transpose(0, 1).view(3, 2, 4))
attempt("narrow view", lambda: x[:, :, :2].view(-1))
attempt("expand view", lambda: torch.ones(3, 1).expand(3, 4).view(12))
attempt("view two -1", lambda: x.view(-1, -1))
attempt("view 0", lambda: x.view(0, -1))
attempt("view bad", lambda: x.view(5, 5))
attempt("view -1 bad", lambda: x.view(-1, 5))
attempt("reshape bad", lambda: x.reshape(7, -1))
attempt("view tuple", lambda: x.view((4, 6)))
attempt("view negative", lambda: x.view(-2, 12))
attempt("flatten dims", lambda: x.flatten(1, 3))
attempt("flatten order", lambda: x.flatten(2, 1))
attempt("unflatten", lambda: x.unflatten(2, (3, 2)))

# Q: "Dimension out of range (expected to be in range of [-2, 1], but got 2)"
m = torch.arange(6.).view(2, 3)
attempt("sum dim 2", lambda: m.sum(2))
attempt("softmax dim 2", lambda: torch.softmax(m, dim=2))
attempt("unsqueeze 3", lambda: m.unsqueeze(3))
attempt("unsqueeze -4", lambda: m.unsqueeze(-4))
attempt("unsqueeze 2", lambda: m.unsqueeze(2))
attempt("squeeze 5", lambda: m.squeeze(5))
attempt("squeeze non1", lambda: m.squeeze(0))
attempt("squeeze tuple", lambda: torch.ones(1, 3, 1).squeeze((0, 2)))
attempt("permute short", lambda: x.permute(0, 1))
attempt("permute repeat", lambda: x.permute(0, 1, 1))
attempt("permute range", lambda: x.permute(0, 1, 3))
attempt("transpose range", lambda: m.transpose(0, 2))
attempt("t 3d", lambda: x.t())
attempt("argmax dim", lambda: m.argmax(dim=-3))
attempt("scalar dim", lambda: torch.tensor(3.0).sum(1))
attempt("scalar unsqueeze", lambda: torch.tensor(3.0).unsqueeze(1))
attempt("size dim", lambda: m.size(2))
attempt("size -3", lambda: m.size(-3))

# Q: torch.cat / torch.stack of mismatched tensors
attempt("cat dim0", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)], dim=0))
attempt("cat dim1 ok", lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)], dim=1))
attempt("cat ndim", lambda: torch.cat([torch.ones(2, 3), torch.ones(3)]))
attempt("cat scalar", lambda: torch.cat([torch.tensor(1.0), torch.tensor(2.0)]))
attempt("cat empty list", lambda: torch.cat([]))
attempt("cat tensor not list", lambda: torch.cat(torch.ones(2, 3)).shape)
attempt("cat dim out", lambda: torch.cat([m, m], dim=2))
attempt("cat dtypes", lambda: torch.cat([m, m.long()]).dtype)
attempt("stack shapes", lambda: torch.stack([torch.ones(2, 3), torch.ones(3, 2)]))
attempt("stack entry 2", lambda: torch.stack([torch.ones(2), torch.ones(2), torch.ones(3)]))
attempt("stack dim", lambda: torch.stack([m, m], dim=3))
attempt("stack dim ok", lambda: torch.stack([m, m], dim=2))
attempt("stack empty", lambda: torch.stack([]))
attempt("hstack", lambda: torch.hstack([torch.ones(2, 1), torch.ones(3, 1)]))
attempt("vstack 1d", lambda: torch.vstack([torch.ones(3), torch.ones(3)]))
attempt("split sizes", lambda: m.split([1, 1], dim=1))
attempt("chunk 0", lambda: m.chunk(0))
