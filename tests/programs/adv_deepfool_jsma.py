# DeepFool (minimal L2 perturbation via per-class gradients with retain_graph) and a JSMA-style
# saliency-map attack (Jacobian of the logits, pick the input feature that pushes the target up
# and the others down, modify it with scatter/index updates) on a small classifier.
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)

net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + 0.7 * i).view_as(p) * 1.2)
net.eval()


def deepfool(model, x, num_classes=3, overshoot=0.02, max_iter=20):
    x0 = x.clone()
    with torch.no_grad():
        label = model(x0.unsqueeze(0)).argmax().item()
    r_tot = torch.zeros_like(x0)
    for it in range(max_iter):
        xi = (x0 + (1 + overshoot) * r_tot).requires_grad_(True)
        logits = model(xi.unsqueeze(0))[0]
        if logits.argmax().item() != label:
            return r_tot, it, label, logits.argmax().item()
        grad_orig, = torch.autograd.grad(logits[label], xi, retain_graph=True)
        best = None
        for k in range(num_classes):
            if k == label:
                continue
            grad_k, = torch.autograd.grad(logits[k], xi, retain_graph=True)
            w_k = grad_k - grad_orig
            f_k = (logits[k] - logits[label]).detach()
            dist = f_k.abs() / (w_k.norm() + 1e-8)
            if best is None or dist < best[0]:
                best = (dist, w_k)
        dist, w = best
        r_i = (dist + 1e-4) * w / (w.norm() + 1e-8)
        r_tot = r_tot + r_i
    return r_tot, max_iter, label, label


points = torch.stack([torch.linspace(-1, 1, 4), torch.cos(torch.arange(4.0)),
                      torch.sin(torch.arange(4.0) * 2), torch.linspace(0.5, -0.5, 4)], 1)
for x in points:
    r, iters, before, after = deepfool(net, x)
    print(f"label {before} -> {after} in {iters} iters, |r|={r.norm().item():.4f}")


def jsma(model, x, target, theta=0.5, max_changes=4):
    x_adv = x.clone()
    searched = torch.ones_like(x, dtype=torch.bool)
    changes = []
    for _ in range(max_changes):
        J = torch.autograd.functional.jacobian(lambda z: model(z.unsqueeze(0))[0], x_adv)
        if model(x_adv.unsqueeze(0)).argmax().item() == target:
            break
        alpha = J[target]
        beta = J.sum(dim=0) - alpha
        score = torch.where((alpha > 0) & (beta < 0) & searched, alpha * beta.abs(), torch.zeros_like(alpha))
        if score.max() <= 0:
            score = torch.where(searched, alpha, torch.full_like(alpha, -1e9))
        idx = score.argmax()
        x_adv.index_put_((idx.view(1),), (x_adv[idx] + theta).view(1))
        searched.scatter_(0, idx.view(1), False)
        changes.append(idx.item())
    return x_adv, changes


for target in range(3):
    x_adv, changes = jsma(net, points[0], target)
    with torch.no_grad():
        pred = net(x_adv.unsqueeze(0)).argmax().item()
    print(f"target {target}: pred {pred}, changed features {changes}")
    print(x_adv - points[0])
