# Framework-style optimizer plumbing: deepcopy/pickle of an optimizer with state, a buggy step
# pre-hook, global step hooks, load_state_dict hook ordering (prepend), closures and LBFGS.
import copy
import pickle
import torch
from torch.optim.optimizer import register_optimizer_step_post_hook

p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
q = torch.nn.Parameter(torch.tensor([0.5]))
opt = torch.optim.Adam([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=0.1, amsgrad=True)
(p.sum() + q.sum() * 2).backward()
opt.step()

clone = copy.deepcopy(opt)
print(clone.state_dict()["state"][1]["exp_avg"], clone.param_groups[1]["lr"])
print(clone.param_groups[0]["params"][0] is p)
restored = pickle.loads(pickle.dumps(opt))
print(restored.param_groups[1]["lr"], sorted(restored.state_dict()["state"][0].keys()))
print(sorted(opt.__getstate__().keys()))
print(list(opt.state.keys()) == [p, q])

for cls in [torch.optim.SGD, torch.optim.AdamW, torch.optim.RMSprop]:
    o = cls([p], lr=0.1)
    o.register_step_pre_hook(lambda opt, args, kwargs: 5)
    try:
        o.step()
    except RuntimeError as e:
        msg = str(e)
        print("RuntimeError", msg[:msg.index(" at ")], msg[msg.index(" must"):])

calls = []
h = register_optimizer_step_post_hook(lambda o, a, k: calls.append(type(o).__name__))
torch.optim.SGD([p], lr=0.01).step()
torch.optim.Adagrad([q], lr=0.01).step()
h.remove()
torch.optim.SGD([p], lr=0.01).step()
print("global post hook saw", calls)

o = torch.optim.SGD([p], lr=0.1, momentum=0.9)
o.register_load_state_dict_pre_hook(lambda opt, sd: print("pre A"))
o.register_load_state_dict_pre_hook(lambda opt, sd: print("pre B"), prepend=True)
o.register_load_state_dict_post_hook(lambda opt: print("post A"))
o.register_load_state_dict_post_hook(lambda opt: print("post B"), prepend=True)
o.load_state_dict(o.state_dict())

o = torch.optim.Adam([p], lr=0.1)


def closure():
    o.zero_grad()
    loss = (p ** 2).sum()
    loss.backward()
    return loss


for i in range(3):
    print("closure loss", round(o.step(closure).item(), 4), [round(v, 4) for v in p.tolist()])

x = torch.nn.Parameter(torch.tensor([-1.5, 2.0]))
lbfgs = torch.optim.LBFGS([x], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")


def rosenbrock():
    lbfgs.zero_grad()
    loss = (1 - x[0]) ** 2 + 10 * (x[1] - x[0] ** 2) ** 2
    loss.backward()
    return loss


for i in range(3):
    loss = lbfgs.step(rosenbrock)
    print("lbfgs", i, f"{loss.item():.3f}", [round(v, 3) for v in x.tolist()])
st = lbfgs.state[x]
print(sorted(st.keys()), st["func_evals"], st["n_iter"])
print(sorted(lbfgs.state_dict()["state"][0].keys()))
try:
    torch.optim.LBFGS([{"params": [p]}, {"params": [q]}])
except ValueError as e:
    print("ValueError", e)
