# Early stopping on validation loss with copy.deepcopy(model.state_dict()), then saving a checkpoint
# dictionary (model, optimizer, epoch, metrics) to io.BytesIO and restoring it into a fresh model.
import copy
import io
import torch
import torch.nn as nn

torch.set_printoptions(precision=4)
X = torch.linspace(-1, 1, 24).view(12, 2)
y = (X[:, :1] * 2.0 - X[:, 1:] * 0.5 + 0.3)
X_tr, y_tr, X_va, y_va = X[:8], y[:8], X[8:], y[8:] + 0.2

def make_model():
    m = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1) / 2)
    return m

model = make_model()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
best_loss, best_state, best_epoch, patience, bad = float("inf"), None, -1, 3, 0
history = []
for epoch in range(40):
    model.train()
    opt.zero_grad()
    loss = loss_fn(model(X_tr), y_tr)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val = loss_fn(model(X_va), y_va)
    history.append(val.item())
    if val < best_loss:
        best_loss, best_epoch, bad = val.item(), epoch, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
        if bad >= patience:
            print(f"early stop at epoch {epoch}, best epoch {best_epoch} val {best_loss:.4f}")
            break
print(type(best_state).__name__, list(best_state.keys()))
print(best_state["0.weight"].requires_grad, best_state["0.weight"] is model[0].weight)
print(torch.equal(best_state["2.bias"], model[2].bias.detach()), len(history))
alias = model.state_dict()
print(alias["0.weight"].data_ptr() == model[0].weight.data_ptr(), best_state["0.weight"].data_ptr() == model[0].weight.data_ptr())
print(model.load_state_dict(best_state))
with torch.no_grad():
    print(f"restored val loss {loss_fn(model(X_va), y_va):.4f}")

ckpt = {"epoch": best_epoch, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
        "val_loss": best_loss, "history": torch.tensor(history), "config": {"hidden": 4, "lr": 0.05}}
buf = io.BytesIO()
torch.save(ckpt, buf)
print(buf.tell() > 0)
buf.seek(0)
loaded = torch.load(buf)
print(sorted(loaded.keys()), loaded["epoch"], loaded["config"], type(loaded["val_loss"]).__name__)
print(loaded["optimizer_state_dict"]["param_groups"][0]["lr"], sorted(loaded["optimizer_state_dict"]["state"].keys()))
print(loaded["optimizer_state_dict"]["state"][0]["step"], loaded["history"].shape, loaded["history"].dtype)
fresh = make_model()
fresh_opt = torch.optim.Adam(fresh.parameters(), lr=1.0)
print(fresh.load_state_dict(loaded["model_state_dict"]))
fresh_opt.load_state_dict(loaded["optimizer_state_dict"])
print(fresh_opt.param_groups[0]["lr"], fresh_opt.state[fresh[0].weight]["exp_avg"].shape)
print(all(torch.equal(a, b) for a, b in zip(fresh.state_dict().values(), model.state_dict().values())))
buf2 = io.BytesIO()
torch.save(model.state_dict(), buf2)
buf2.seek(0)
sd = torch.load(buf2, weights_only=True)
print(type(sd).__name__, sd["2.bias"])
bad_sd = dict(sd)
bad_sd["0.weight"] = torch.zeros(3, 2)
try:
    fresh.load_state_dict(bad_sd)
except RuntimeError as e:
    print(type(e).__name__, e)
del bad_sd["2.bias"]
bad_sd["0.weight"] = sd["0.weight"]
bad_sd["extra"] = torch.ones(1)
print(fresh.load_state_dict(bad_sd, strict=False))
try:
    fresh.load_state_dict(bad_sd)
except RuntimeError as e:
    print(type(e).__name__, e)
