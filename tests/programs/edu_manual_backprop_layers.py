# CS231n-style assignment: hand-written backward passes for affine / relu / softmax-loss /
# batchnorm layers, checked against autograd with torch.allclose and max abs error (%.2e).
import torch


def affine_forward(x, w, b):
    out = x.reshape(x.shape[0], -1) @ w + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = (dout @ w.T).reshape(x.shape)
    dw = x.reshape(x.shape[0], -1).T @ dout
    db = dout.sum(dim=0)
    return dx, dw, db


def relu_forward(x):
    return x.clamp(min=0), x


def relu_backward(dout, x):
    return dout * (x > 0)


def softmax_loss(scores, y):
    shifted = scores - scores.max(dim=1, keepdim=True).values
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    N = scores.shape[0]
    loss = -log_probs[torch.arange(N), y].mean()
    dscores = log_probs.exp()
    dscores[torch.arange(N), y] -= 1
    return loss, dscores / N


def batchnorm_forward(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=0)
    var = x.var(dim=0, unbiased=False)
    xhat = (x - mu) / torch.sqrt(var + eps)
    return gamma * xhat + beta, (xhat, gamma, var, eps)


def batchnorm_backward_alt(dout, cache):
    xhat, gamma, var, eps = cache
    N = dout.shape[0]
    dbeta = dout.sum(0)
    dgamma = (dout * xhat).sum(0)
    dxhat = dout * gamma
    dx = (N * dxhat - dxhat.sum(0) - xhat * (dxhat * xhat).sum(0)) / (N * torch.sqrt(var + eps))
    return dx, dgamma, dbeta


def rel_error(a, b):
    return ((a - b).abs().max() / (a.abs() + b.abs()).clamp(min=1e-8).max()).item()


dtype = torch.float64
N, D, H, C = 6, 2 * 3, 5, 4
x = torch.linspace(-1.5, 2.0, N * D, dtype=dtype).reshape(N, 2, 3).requires_grad_()
w1 = (torch.sin(torch.arange(D * H, dtype=dtype)) * 0.5).reshape(D, H).requires_grad_()
b1 = torch.linspace(-0.2, 0.2, H, dtype=dtype).requires_grad_()
gamma = torch.linspace(0.5, 1.5, H, dtype=dtype).requires_grad_()
beta = torch.linspace(-0.1, 0.1, H, dtype=dtype).requires_grad_()
w2 = (torch.cos(torch.arange(H * C, dtype=dtype)) * 0.3).reshape(H, C).requires_grad_()
b2 = torch.zeros(C, dtype=dtype, requires_grad=True)
y = torch.tensor([0, 3, 1, 2, 2, 0])

# forward with manual caches
a1, c1 = affine_forward(x, w1, b1)
bn, cbn = batchnorm_forward(a1, gamma, beta)
r, cr = relu_forward(bn)
scores, c2 = affine_forward(r, w2, b2)
loss, dscores = softmax_loss(scores, y)
print("loss:", f"{loss.item():.6f}")
print("scores grad_fn:", type(scores.grad_fn).__name__)

# manual backward
with torch.no_grad():
    dr, dw2, db2 = affine_backward(dscores, c2)
    dbn = relu_backward(dr, cr)
    da1, dgamma, dbeta = batchnorm_backward_alt(dbn, cbn)
    dx, dw1, db1 = affine_backward(da1, c1)

# autograd reference
loss.backward()
for name, mine, ref in [("dx", dx, x.grad), ("dw1", dw1, w1.grad), ("db1", db1, b1.grad),
                        ("dgamma", dgamma, gamma.grad), ("dbeta", dbeta, beta.grad),
                        ("dw2", dw2, w2.grad), ("db2", db2, b2.grad)]:
    err = (mine - ref).abs().max().item()
    print(f"{name:7s} shape={tuple(mine.shape)} allclose={torch.allclose(mine, ref)} "
          f"max_abs_err<1e-10: {err < 1e-10} rel_err<1e-8: {rel_error(mine, ref) < 1e-8}")

print("dx.dtype", dx.dtype, "dx.shape", dx.shape)
print("db1 ~ 0 (batchnorm cancels bias):", db1.abs().max().item() < 1e-12)
print("dw2", dw2.round(decimals=5))
print("dbeta", dbeta)
print(f"max abs err dbeta < 1e-12: {(dbeta - beta.grad).abs().max().item() < 1e-12}")
print("dx rows sum:", dx.sum(dim=(1, 2)))
