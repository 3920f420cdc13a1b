# A complete train.py skeleton: CONFIG dict, device/seed setup, autocast+GradScaler with enabled=use_amp, eval, best-ckpt.
import io
import time
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CONFIG = {"batch_size": 8, "epochs": 5, "lr": 0.05, "weight_decay": 1e-4, "seed": 1234, "amp": True, "num_workers": 0}
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_amp = CONFIG["amp"] and device.type == "cuda"
amp_dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
torch.manual_seed(CONFIG["seed"])
torch.backends.cudnn.benchmark = device.type == "cuda"
print(f"device={device} amp={use_amp} amp_dtype={amp_dtype} workers={CONFIG['num_workers']}")

t = torch.linspace(0, 6.28, 64)
X = torch.stack([torch.sin(t), torch.cos(t), t / 6.28], dim=1)
y = (torch.sin(2 * t) > 0).long()
train_ds, val_ds = TensorDataset(X[:48], y[:48]), TensorDataset(X[48:], y[48:])
train_dl = DataLoader(train_ds, batch_size=CONFIG["batch_size"], shuffle=False, pin_memory=device.type == "cuda",
                      num_workers=CONFIG["num_workers"], persistent_workers=False)
val_dl = DataLoader(val_ds, batch_size=16)

model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape) * 0.6)
print(f"model has {sum(p.numel() for p in model.parameters() if p.requires_grad):,} trainable parameters")
decay = [p for n, p in model.named_parameters() if p.dim() > 1]
no_decay = [p for n, p in model.named_parameters() if p.dim() <= 1]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": CONFIG["weight_decay"]},
                         {"params": no_decay, "weight_decay": 0.0}], lr=CONFIG["lr"])
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=CONFIG["epochs"] * len(train_dl))
scaler = torch.amp.GradScaler(device.type, enabled=use_amp)
criterion = nn.CrossEntropyLoss()

@torch.no_grad()
def validate():
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for xb, yb in val_dl:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        with torch.autocast(device_type=device.type, dtype=amp_dtype, enabled=use_amp):
            logits = model(xb)
        loss_sum += criterion(logits, yb).item() * yb.numel()
        correct += (logits.argmax(1) == yb).sum().item()
        total += yb.numel()
    model.train()
    return loss_sum / total, correct / total

best, best_state = float("inf"), None
start = time.time()
for epoch in range(CONFIG["epochs"]):
    model.train()
    running = 0.0
    for xb, yb in train_dl:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device.type, dtype=amp_dtype, enabled=use_amp):
            loss = criterion(model(xb), yb)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        sched.step()
        running += loss.item()
    val_loss, val_acc = validate()
    improved = val_loss < best
    if improved:
        best = val_loss
        best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
    print(f"epoch {epoch + 1}/{CONFIG['epochs']} train {running / len(train_dl):.4f} val {val_loss:.4f} "
          f"acc {val_acc:.3f} lr {sched.get_last_lr()[0]:.5f}{' *' if improved else ''}")
print("elapsed measured:", time.time() - start >= 0)
buf = io.BytesIO()
torch.save({"model": best_state, "config": CONFIG, "scaler": scaler.state_dict()}, buf)
buf.seek(0)
ck = torch.load(buf, map_location=device, weights_only=True)
print(ck["config"] == CONFIG, ck["scaler"], model.load_state_dict(ck["model"]))
print(f"best val {validate()[0]:.4f} == {best:.4f}")
