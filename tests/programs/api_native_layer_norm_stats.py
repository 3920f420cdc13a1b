# Custom normalization code that calls the ATen "native" functions for their saved statistics, as
# fused-kernel tutorials do to check a hand-written LayerNorm backward: native_layer_norm's
# (out, mean, rstd), native_batch_norm in train and eval, native_group_norm, native_dropout.
import torch
import torch.nn.functional as F

x = (torch.arange(24, dtype=torch.float32).view(2, 3, 4) * 0.37).sin().requires_grad_()
w = torch.linspace(0.5, 1.5, 4, requires_grad=True)
b = torch.linspace(-0.1, 0.1, 4, requires_grad=True)

out, mean, rstd = torch.native_layer_norm(x, [4], w, b, 1e-5)
print(out.grad_fn.name(), mean.shape, rstd.shape, mean.requires_grad)
print(mean.squeeze(-1))
print(rstd.squeeze(-1))
print(torch.allclose(out, F.layer_norm(x, [4], w, b, 1e-5)))

# the hand-written backward checked against autograd
g = torch.linspace(-1, 1, 24).view(2, 3, 4)
out.backward(g)
xhat = (x.detach() - mean) * rstd
gx_hat = g * w.detach()
manual = rstd * (gx_hat - gx_hat.mean(-1, keepdim=True) - xhat * (gx_hat * xhat).mean(-1, keepdim=True))
print(torch.allclose(manual, x.grad, atol=1e-5))
print(torch.allclose(w.grad, (g * xhat).sum((0, 1)), atol=1e-5), b.grad)

running_mean, running_var = torch.zeros(3), torch.ones(3)
xb = x.detach().clone().requires_grad_()
y, save_mean, save_invstd = torch.native_batch_norm(xb, None, None, running_mean, running_var, True, 0.1, 1e-5)
print(y.grad_fn.name(), save_mean, save_invstd)
print(running_mean, running_var)
y, m2, v2 = torch.native_batch_norm(xb, None, None, running_mean, running_var, False, 0.1, 1e-5)
print(m2.shape, v2.shape, y[0, 0])

gn_out, gn_mean, gn_rstd = torch.native_group_norm(xb, None, None, 2, 3, 4, 3, 1e-5)
print(gn_out.grad_fn.name(), gn_mean.shape, gn_rstd.shape)
print(gn_mean, gn_rstd.output_nr, torch.allclose(gn_out, F.group_norm(xb, 3), atol=1e-6))

d, mask = torch.native_dropout(x, 0.3, False)
print(d.grad_fn.name(), mask.dtype, mask.all().item(), torch.equal(d, x))
d, mask = torch.native_dropout(x, 1.0, True)
print(d.abs().sum().item(), mask.any().item())
d, mask = torch.native_dropout(x, 0.5, True)
print(mask.shape, bool(((d == 0) | (d == 2 * x)).all()))
