# Optimizer knobs users poke at: zero_grad(set_to_none=...) effects on .grad, maximize=True for gradient
# ascent, foreach/fused flags in defaults and repr, step pre/post hooks (incl. modifying args), and
# load_state_dict pre hooks that rewrite old checkpoints.
import torch
import torch.nn as nn

w = nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
opt = torch.optim.SGD([w], lr=0.1)
(w ** 2).sum().backward()
g = w.grad
opt.zero_grad(set_to_none=False)
print(w.grad, w.grad is g, w.grad.grad_fn)
(w ** 2).sum().backward()
print(w.grad)
opt.zero_grad()
print(w.grad)
opt.step()  # no grads: nothing happens
print(w.data, len(opt.state))

# gradient ascent with maximize=True
for cls, kw in [(torch.optim.SGD, dict(lr=0.1, momentum=0.5)), (torch.optim.Adam, dict(lr=0.1)),
                (torch.optim.AdamW, dict(lr=0.1)), (torch.optim.RMSprop, dict(lr=0.01)),
                (torch.optim.Adagrad, dict(lr=0.1)), (torch.optim.NAdam, dict(lr=0.1)),
                (torch.optim.RAdam, dict(lr=0.1)), (torch.optim.Adamax, dict(lr=0.1))]:
    z = nn.Parameter(torch.tensor([0.5, -0.5]))
    o = cls([z], maximize=True, **kw)
    for _ in range(5):
        o.zero_grad()
        obj = -((z - torch.tensor([1.0, 2.0])) ** 2).sum()
        obj.backward()
        o.step()
    print(f"{cls.__name__:8s}", o.defaults["maximize"], [round(v, 3) for v in z.tolist()])

# foreach / fused flags
p = nn.Parameter(torch.ones(2))
for kw in [dict(), dict(foreach=True), dict(foreach=False), dict(fused=True)]:
    o = torch.optim.Adam([p], lr=0.1, **kw)
    print(kw, o.defaults["foreach"], o.defaults["fused"], o.param_groups[0]["foreach"])
try:
    torch.optim.Adam([p], foreach=True, fused=True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.optim.SGD([p], lr=0.1, foreach=True, fused=None))

# hooks
o = torch.optim.SGD([w], lr=0.1)
events = []


def pre_hook(optimizer, args, kwargs):
    events.append(("pre", len(args), sorted(kwargs)))


def post_hook(optimizer, args, kwargs):
    events.append(("post", round(w[0].item(), 4)))


h_pre = o.register_step_pre_hook(pre_hook)
h_post = o.register_step_post_hook(post_hook)
w.grad = torch.ones(3)
o.step()
o.step(closure=None)
print(events)
h_pre.remove()
h_post.remove()
o.step()
print(len(events), type(h_pre).__name__)

# a pre-hook that replaces the closure
def inject_closure(optimizer, args, kwargs):
    return args, {"closure": lambda: torch.tensor(42.0)}


h = o.register_step_pre_hook(inject_closure)
print(o.step())
h.remove()

# global hooks
from torch.optim.optimizer import register_optimizer_step_post_hook
gh = register_optimizer_step_post_hook(lambda opt, a, k: print("global post", type(opt).__name__))
o.step()
torch.optim.Adam([w], lr=0.1).step()
gh.remove()
o.step()

# load_state_dict pre hook migrating an old checkpoint
sd = torch.optim.Adam([w], lr=0.1).state_dict()
del sd["param_groups"][0]["amsgrad"]


def migrate(optimizer, state_dict):
    for group in state_dict["param_groups"]:
        group.setdefault("amsgrad", False)
    print("migrating", sorted(state_dict.keys()))
    return state_dict


o2 = torch.optim.Adam([w], lr=0.3)
o2.register_load_state_dict_pre_hook(migrate)
o2.register_load_state_dict_post_hook(lambda opt: print("loaded lr", opt.param_groups[0]["lr"]))
o2.load_state_dict(sd)
print(o2.param_groups[0]["amsgrad"])
