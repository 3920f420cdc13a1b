# Carlini-Wagner L2 attack: optimise w in tanh space with Adam (x_adv = (tanh(w)+1)/2), margin loss
# on logits with kappa, per-example binary search over the constant c, best perturbation tracking.
import torch
import torch.nn as nn

torch.set_printoptions(precision=3)

model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.7 + 2 * i).view_as(p) * 1.5)
model.eval()
for p in model.parameters():
    p.requires_grad = False

x = torch.stack([torch.linspace(0.1, 0.9, 5), torch.linspace(0.8, 0.2, 5),
                 (torch.cos(torch.arange(5.0)) + 1) / 2 * 0.8 + 0.1], 1)
y = model(x).argmax(1)
print("labels", y.tolist())


def atanh(z):
    return 0.5 * torch.log((1 + z) / (1 - z))


def cw_l2(model, x, y, c, kappa=0.0, steps=40, lr=0.05):
    w = atanh((x * 2 - 1) * 0.999999).detach().requires_grad_(True)
    opt = torch.optim.Adam([w], lr=lr)
    best_l2 = torch.full((x.shape[0],), float("inf"))
    best_adv = x.clone()
    onehot = torch.nn.functional.one_hot(y, 3).bool()
    for step in range(steps):
        x_adv = (torch.tanh(w) + 1) / 2
        logits = model(x_adv)
        real = logits[onehot]
        other = logits.masked_fill(onehot, -1e4).max(dim=1).values
        f = torch.clamp(real - other + kappa, min=0)
        l2 = ((x_adv - x) ** 2).sum(dim=1)
        loss = (l2 + c * f).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            success = logits.argmax(1) != y
            improved = success & (l2 < best_l2)
            best_l2 = torch.where(improved, l2, best_l2)
            best_adv[improved] = x_adv[improved]
    return best_adv, best_l2


for c in [0.1, 1.0, 10.0]:
    adv, l2 = cw_l2(model, x, y, c)
    with torch.no_grad():
        pred = model(adv).argmax(1)
    ok = (pred != y)
    print(f"c={c}: success {ok.sum().item()}/5", "l2", [round(v, 3) if v != float("inf") else None for v in l2.sqrt().tolist()])

# binary search on c per example
lo = torch.zeros(5)
hi = torch.full((5,), 100.0)
c = torch.ones(5)
for _ in range(4):
    adv, l2 = cw_l2(model, x, y, c.view(-1))
    success = torch.isfinite(l2)
    hi = torch.where(success, torch.minimum(hi, c), hi)
    lo = torch.where(success, lo, torch.maximum(lo, c))
    c = torch.where(hi < 100, (lo + hi) / 2, c * 10)
print("c", c)
print("adv in box", bool(((adv >= 0) & (adv <= 1)).all()), adv.requires_grad)
