# Debugging NaN gradients with anomaly detection, as in the "Finding the source of NaN" answers.
import warnings

import torch

print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())

x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
y = torch.sqrt(x) * 0.0          # 0 * inf -> nan in backward of sqrt? no: forward fine
loss = (x / x).sum()              # 0/0 -> nan in forward
print(loss)
loss.backward()
print(x.grad)                     # nan silently without anomaly mode

x.grad = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
        z = torch.sqrt(x)
        w = (z * torch.tensor([0.0, 1.0, 1.0])).sum()
        try:
            w.backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
print(torch.is_anomaly_enabled())
print(len(caught) > 0, caught[0].category.__name__ if caught else None)
print(x.grad)

# set_detect_anomaly as a function call and as a context manager
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
a = torch.tensor([1.0, -1.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        torch.log(a).sum().backward()     # forward nan, backward finite
        print("grad", a.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
    b = torch.tensor([0.0, 2.0], requires_grad=True)
    try:
        (b ** 0.5).sum().backward()       # inf, not nan: no error
        print("grad", b.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
    c = torch.tensor([0.0, 2.0], requires_grad=True)
    try:
        torch.where(c > 0, torch.sqrt(c), torch.zeros(2)).sum().backward()
        print("grad", c.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
    d = torch.tensor([0.0, 3.0], requires_grad=True)
    try:
        d.norm().mul(0).backward()
        (d - d).norm().backward()
        print("grad", d.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())

with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    e = torch.tensor([0.0], requires_grad=True)
    (e / e).sum().backward()
    print(e.grad)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())

try:
    torch.autograd.set_detect_anomaly("yes")
except TypeError as e:
    print("TypeError:", e)
print(torch.is_anomaly_enabled())
