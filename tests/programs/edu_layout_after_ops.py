# Memory-layout quiz: which ops return contiguous tensors when fed a transposed input?
# Students print stride()/is_contiguous() after cat/stack/roll/sort/unsqueeze and then try .view.
import torch

x = torch.arange(6.0).reshape(2, 3)
xt = x.t()
print("xt", xt.shape, xt.stride(), xt.is_contiguous())


def report(name, t):
    try:
        flat = t.view(-1)
        ok = f"view ok {tuple(flat.shape)}"
    except RuntimeError as e:
        ok = f"view fails: {str(e)[:60]}"
    print(f"{name:28s} shape={tuple(t.shape)} stride={t.stride()} contiguous={t.is_contiguous()} {ok}")


report("cat([xt, xt])", torch.cat([xt, xt]))
report("cat([xt, xt], 1)", torch.cat([xt, xt], dim=1))
report("cat([xt])", torch.cat([xt]))
report("stack([xt, xt])", torch.stack([xt, xt]))
report("stack([xt, xt], -1)", torch.stack([xt, xt], dim=-1))
report("hstack", torch.hstack([xt, xt]))
report("vstack", torch.vstack([xt, xt]))
report("roll(1, 0)", xt.roll(1, 0))
report("roll(2)", xt.roll(2))
report("flip(0)", xt.flip(0))
report("tril", xt.tril())
report("repeat(2, 1)", xt.repeat(2, 1))
report("repeat_interleave(2, 0)", xt.repeat_interleave(2, 0))
report("sort(0).values", xt.sort(0).values)
report("argsort(1)", xt.argsort(1))
report("topk(1, 1).values", xt.topk(1, 1).values)
report("unsqueeze(0)", xt.unsqueeze(0))
report("unsqueeze(1)", xt.unsqueeze(1))
report("unsqueeze(2)", xt.unsqueeze(2))
report("xt[..., None]", xt[..., None])
report("xt[:, None]", xt[:, None])
report("x[:, 1].unsqueeze(1)", x[:, 1].unsqueeze(1))
report("x[:, ::2]", x[:, ::2])
report("x[:, ::2].unsqueeze(-1)", x[:, ::2].unsqueeze(-1))
report("contiguous()", xt.contiguous())
report("clone()", xt.clone())
report("reshape(3, 2)", xt.reshape(3, 2))

# concatenating attention heads, a typical place where this matters
heads = [torch.arange(12.0).reshape(3, 4).t() * (h + 1) for h in range(2)]  # each (4, 3), transposed
merged = torch.cat(heads, dim=-1)
print(merged.shape, merged.is_contiguous(), merged.view(2, 2, 6)[1, 0])
