# The glue code around RL training loops: episode returns kept as lists of tensors / floats /
# numpy scalars, np.mean over them, tensors meeting numpy scalars in arithmetic, f-string
# formatting of 0-d tensors, torch.tensor over lists of 0-d tensors, and .numpy() pitfalls.
import numpy as np
import torch

episode_rewards = [torch.tensor(1.0), torch.tensor(0.5), torch.tensor(2.0)]
print(sum(episode_rewards), torch.stack(episode_rewards).mean(), torch.tensor(episode_rewards))
print(np.mean([r.item() for r in episode_rewards]), type(np.mean([r.item() for r in episode_rewards])).__name__)
print(np.mean(episode_rewards), type(np.mean(episode_rewards)).__name__)
print(np.array(episode_rewards), np.array(episode_rewards).dtype)
print(float(episode_rewards[2]), int(torch.tensor(3.7)), round(torch.tensor(2.345).item(), 2))
r = torch.tensor(1.23456)
print(f"{r:.3f}", "{:.2f}".format(r), "%.4f" % r, f"{r.item():8.3f}|", f"{torch.tensor(7):d}")
print(f"{torch.tensor(0.5)}", str(torch.tensor([1.5])), repr(torch.tensor(2.0)))
try:
    print(f"{torch.tensor([1.0, 2.0]):.2f}")
except TypeError as e:
    print("TypeError", e)

# numpy scalars meet tensors
gamma = np.float64(0.99)
t32 = torch.tensor([1.0, 2.0])
print((gamma * t32).dtype, (t32 * gamma).dtype, (np.float32(2.0) * t32).dtype, (t32 + np.int64(1)).dtype)
print(type(gamma * t32).__name__, type(t32 * np.float32(0.5)).__name__)
print((torch.tensor([1, 2]) * np.float64(0.5)).dtype, (torch.tensor([1, 2]) + np.int32(1)).dtype)
print(t32 * np.array(0.5), (t32 * np.array(0.5)).dtype)
print(np.float64(3.0) + torch.tensor(1.0), torch.tensor(1.0) + 3.0)
print(torch.tensor([True, False]) * 1.0, torch.tensor([True, False]) * np.float32(1))
arr = np.array([0.1, 0.2], dtype=np.float32)
for op in ["arr + t32", "arr * t32", "arr - t32", "arr / t32", "arr > t32", "np.array(0.5) + t32", "t32 + arr"]:
    try:
        res = eval(op)
        print(op, "->", type(res).__name__, res.dtype)
    except Exception as e:
        print(op, "->", type(e).__name__, str(e).split(".")[0])
print(torch.tensor([1.0, 1.0]) + torch.from_numpy(arr), torch.as_tensor(arr).sum().item() == float(arr.sum()))

# .numpy() and friends on tensors that need grad
w = torch.tensor([0.5, -0.5], requires_grad=True)
out = w * 2
try:
    out.numpy()
except RuntimeError as e:
    print("RuntimeError", e)
print(out.detach().numpy(), out.data.numpy(), out.tolist(), w.detach().cpu().numpy().tolist())
try:
    np.array(out)
except Exception as e:
    print(type(e).__name__, e)
try:
    float(out)
except Exception as e:
    print(type(e).__name__, e)
print(float(out[0]), out[0].item(), out.sum().item())

# logging dicts the way training scripts do
stats = {"loss": torch.tensor(0.12345), "kl": torch.tensor(1e-4), "n": torch.tensor(16)}
print({k: round(v.item(), 4) for k, v in stats.items()})
print(", ".join(f"{k}={v:.3g}" for k, v in stats.items() if v.is_floating_point()))
print(max(episode_rewards), min(episode_rewards).item(), sorted(episode_rewards))
print(torch.tensor(episode_rewards).argsort(descending=True), np.argsort([x.item() for x in episode_rewards]))
ep_lengths = [12, 30, 7]
print(torch.tensor(ep_lengths).float().mean(), torch.tensor(ep_lengths).double().std(), torch.mean(torch.FloatTensor(ep_lengths)))
try:
    torch.tensor(ep_lengths).mean()
except RuntimeError as e:
    print("RuntimeError", e)
print(np.std(np.array([1.0, 2.0, 4.0])), torch.tensor([1.0, 2.0, 4.0]).std(unbiased=False), torch.tensor([1.0, 2.0, 4.0]).std())
print(torch.tensor([1.0, 2.0, 4.0]).var(0, keepdim=True), torch.std_mean(torch.tensor([1.0, 2.0, 4.0])))
# numpy reductions called directly on a tensor (a common slip in logging code)
for fn in (np.mean, np.sum):
    try:
        print(fn.__name__, fn(torch.tensor([0.5, -2.0, 1.5])))
    except TypeError as e:
        print(fn.__name__, "TypeError", str(e).splitlines()[0])
print(np.clip(torch.tensor([0.5, -2.0, 1.5]), -1, 1), np.asarray(torch.tensor([1, 2])).dtype)
