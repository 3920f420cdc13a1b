# A test file that imports GradcheckError from the gradcheck module, then calls the gradcheck
# function of the same name through torch.autograd (the module must not hide the function).
from torch.autograd.gradcheck import GradcheckError
import torch

x = torch.ones(2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.sin, (x,)))
try:
    torch.autograd.gradcheck(lambda t: t.detach() * 1.0 + t * 0.0 + 1e-3 * t.sum().detach(), (x,))
except GradcheckError as e:
    print(type(e).__name__, str(e).splitlines()[0])
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
