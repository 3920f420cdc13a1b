# Device-agnostic training-script preamble: pick device, cudnn/tf32 flags, matmul precision, threads.
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, device.type, device.index)
print("cuda available:", torch.cuda.is_available(), "count:", torch.cuda.device_count())
print("mps available:", torch.backends.mps.is_available())
print("version is str:", isinstance(torch.__version__, str))

torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print("benchmark:", torch.backends.cudnn.benchmark, "tf32:", torch.backends.cuda.matmul.allow_tf32)
torch.set_float32_matmul_precision("high")
print("precision:", torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
print("precision:", torch.get_float32_matmul_precision())
try:
    torch.set_float32_matmul_precision("ultra")
except Exception as e:
    print(type(e).__name__)

old = torch.get_num_threads()
torch.set_num_threads(1)
print("threads:", torch.get_num_threads())
torch.set_num_threads(old)
print("restored:", torch.get_num_threads() == old)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
print(next(model.parameters()).device, next(model.parameters()).is_cuda)
x = torch.arange(12, dtype=torch.float32).reshape(3, 4).to(device, non_blocking=True)
y = model(x)
print(y)
print(y.device == device, y.detach().cpu().numpy().shape)
n_params = sum(p.numel() for p in model.parameters())
n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"params: {n_params:,} trainable: {n_train:,}")
print(torch.device("cpu") == torch.device("cpu", 0), str(torch.device("cuda:1")), torch.device("cuda", 0).index)
t = torch.ones(2, device="cpu")
print(t.to("cpu") is t, t.to(device=device, dtype=torch.float64).dtype, t.get_device())
