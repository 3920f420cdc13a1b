# Getting numbers out of tensors for logging: .item(), float()/int()/bool(), f-strings with format
# specs, '%' formatting, str() vs repr() -- and the errors people hit on multi-element tensors.
import math
import torch


def show(label, fn):
    try:
        out = fn()
        print(f"{label:24s} {out!r} {type(out).__name__}")
    except Exception as e:  # noqa: BLE001
        print(f"{label:24s} {type(e).__name__}: {e}")


loss = torch.tensor(0.123456789)
acc = torch.tensor(0.875, dtype=torch.float64)
count = torch.tensor(42)
flag = torch.tensor(True)
show("loss.item()", lambda: loss.item())
show("acc.item()", lambda: acc.item())
show("count.item()", lambda: count.item())
show("flag.item()", lambda: flag.item())
show("torch.tensor(0.1).item()", lambda: torch.tensor(0.1).item())
show("[0.1].tolist()", lambda: torch.tensor([0.1, 1 / 3]).tolist())
show("float64 tolist", lambda: torch.tensor([0.1, 1 / 3], dtype=torch.float64).tolist())
show("float(loss)", lambda: float(loss))
show("int(tensor(-2.7))", lambda: int(torch.tensor(-2.7)))
show("int(tensor([3.9]))", lambda: int(torch.tensor([3.9])))
show("bool(tensor([0.]))", lambda: bool(torch.tensor([0.0])))
show("float(2-elem)", lambda: float(torch.tensor([1.0, 2.0])))
show("int(2-elem)", lambda: int(torch.tensor([1, 2])))
show("bool(2-elem)", lambda: bool(torch.tensor([1, 2])))
show("item(2-elem)", lambda: torch.tensor([1.0, 2.0]).item())
show("item(empty)", lambda: torch.tensor([]).item())
show("math.sqrt(t)", lambda: math.sqrt(torch.tensor(2.0)))
show("math.floor(t)", lambda: math.floor(torch.tensor(-2.5)))
show("round(t)", lambda: round(torch.tensor(2.5)))
show("round(t, 1)", lambda: round(torch.tensor(2.345), 1))
show("range(t)", lambda: list(range(torch.tensor(3))))
show("list index", lambda: ["a", "b", "c"][torch.tensor(1)])
show("float index", lambda: ["a", "b"][torch.tensor(1.0)])
show("divmod item", lambda: divmod(count.item(), 5))

print(f"loss {loss:.4f} acc {acc:.2%} count {count:5d}")
print(f"loss {loss} | {loss!r} | {loss!s}")
print(f"{loss:.3e} {loss:10.3f}| {acc:g} {count:x} {flag}")
print(f"{loss.item():.3f} {count.item():03d} {torch.tensor(-0.0):.1f} {torch.tensor(float('nan')):.2f}")
print("%.3f %d %s" % (loss, count, flag))
print("{:.2f} {}".format(loss, torch.tensor([1.5, 2.5])))
print(str(loss), repr(acc), str(count), repr(flag))
print(format(loss, ".3f"), format(torch.tensor(1e-9), ".2e"), format(torch.tensor(123456.0), ","))
print(format(loss), format(torch.tensor([1.0, 2.0])), format(count, ""))
for spec in [".3f", "d", ""]:
    try:
        print(spec, format(torch.tensor([1.5, 2.5]), spec))
    except Exception as e:  # noqa: BLE001
        print(spec, type(e).__name__ + ":", e)
try:
    print(f"{count:.2f}")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__ + ":", e)
try:
    print(f"{loss:d}")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__ + ":", e)

history = [torch.tensor(1.25), torch.tensor(0.5)]
print(history, [h.item() for h in history], sum(history), max(history))
print(torch.tensor([1.0, 2.0]).sum().item() / 2, loss.item() == float(loss), loss.double().item())
print(torch.tensor(16777217.0).item(), torch.tensor(2 ** 53 + 1).item(), torch.tensor(2 ** 53 + 1).float().item())
