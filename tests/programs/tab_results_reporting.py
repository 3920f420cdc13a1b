# Reporting results of a tabular experiment: f-string formatting of tensors, Python builtins on
# tensors (round, abs, sum, max, math.*), .tolist()/.item() conversions, json and dict summaries.
import json
import math
import statistics
import torch

fold_acc = [torch.tensor(0.8125), torch.tensor(0.75), torch.tensor(0.875), torch.tensor(0.8)]
losses = torch.tensor([0.6931, 0.5123, 0.4012, 0.3999, 0.4100])
print(f"{fold_acc[0]:.2%}", f"{fold_acc[1]:.1%}", f"{losses[2]:.3f}", f"{losses[-1]:e}", f"{losses[0]:10.2f}|")
print(f"{torch.tensor(7):d}", f"{torch.tensor(7):5d}|", f"{torch.tensor(3):03d}", f"{torch.tensor(255):x}")
print(f"{torch.tensor(True)}", f"{torch.tensor(1.5)}")
print("{:.3f} {:>8.2f} {}".format(losses[1], losses[3], losses[4]), "%.2f" % losses[0], "%d" % torch.tensor(4))
print(format(losses[0], ".1f"), format(torch.tensor(2), "b"), str(losses[0]), repr(losses[1]))
print(round(losses[1].item(), 2), round(float(losses[1])))
try:
    round(losses[1], 2)
except TypeError as e:
    print(type(e).__name__, e)
print(abs(torch.tensor(-2.5)), sum(fold_acc), sum(fold_acc) / len(fold_acc), max(fold_acc), min(losses))
print(sorted(losses)[:2], sorted(losses.tolist())[:2], losses.argmin().item(), int(losses.argmin()))
print(math.sqrt(torch.tensor(2.0)), math.exp(torch.tensor(1.0)), math.isnan(torch.tensor(float("nan"))), math.floor(torch.tensor(2.7)))
print(statistics.mean([a.item() for a in fold_acc]), statistics.stdev(torch.stack(fold_acc).tolist()))
acc = torch.stack(fold_acc)
print(f"CV accuracy: {acc.mean():.3f} ± {acc.std():.3f}", f"(min {acc.min():.3f}, max {acc.max():.3f})")
summary = {"acc": acc.tolist(), "mean": acc.mean().item(), "best_fold": acc.argmax().item(), "n": acc.numel()}
print(json.dumps(summary))
print(json.dumps({"loss": round(losses[-1].item(), 4), "shape": list(losses.shape), "size": losses.size(0)}))
try:
    json.dumps({"loss": losses[-1]})
except TypeError as e:
    print(type(e).__name__, e)
try:
    f"{losses:.2f}"
except TypeError as e:
    print(type(e).__name__, e)
try:
    losses.item()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    int(torch.tensor([1, 2]))
except (TypeError, ValueError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    bool(torch.tensor([True, False]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([[1, 2], [3, 4]]).tolist(), torch.tensor(5).tolist(), type(torch.tensor(5).tolist()).__name__)
print(torch.tensor([1.5, 2.25]).tolist(), torch.tensor([True]).tolist(), torch.tensor([], dtype=torch.int64).tolist())
print(torch.tensor([0.1, 0.2]).tolist(), torch.tensor([0.1, 0.2], dtype=torch.float64).tolist(), torch.tensor(0.1).item())
print(torch.tensor(3).item(), type(torch.tensor(3).item()).__name__, type(torch.tensor(3.0).item()).__name__, torch.tensor(True).item())
print(losses.numpy().tolist() == losses.tolist(), list(losses.numpy().round(2)), float(losses.numpy()[0]))
print(f"{losses.mean().item():.4f}", "%s" % losses.max(), "%r" % losses.shape, f"{losses.shape}", f"{losses.dtype}")
table = torch.stack([torch.arange(1, 6).float(), losses], dim=1)
for epoch, l in table.tolist():
    print(f"epoch {int(epoch):2d} loss {l:.4f}", end="; ")
print()
for i, l in enumerate(losses):
    print(f"{i}:{l:.2f}", end=" ")
print(list(map(float, losses[:2])), [f"{v:.1f}" for v in losses])
print(dict(zip(["a", "b"], torch.tensor([1, 2]))), {k: v.item() for k, v in zip("ab", torch.tensor([1., 2.]))})
print(f"{torch.tensor(1e-5):.2e}", f"{torch.tensor(123456.789):,.1f}", f"{torch.tensor(0.5, dtype=torch.float64):.20f}")
print(f"{torch.tensor(1.0) / 3:.10f}", f"{torch.tensor(-0.0):.1f}", f"{torch.tensor(float('inf'))}", f"{torch.tensor(2**40)}")
