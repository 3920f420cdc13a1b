# k-means from scratch with torch.cdist + argmin, the usual tutorial loop: assign points to the
# nearest centroid, recompute centroids with index_add_/scatter_add_/bincount, track inertia;
# plus cdist options (p=1, p=inf, compute_mode) and the gradient of a soft-assignment loss.
import torch

torch.set_printoptions(precision=4)
t = torch.arange(15, dtype=torch.float32)
centers_true = torch.tensor([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0]])
offsets = torch.stack([torch.sin(t * 1.7), torch.cos(t * 2.3)], dim=1) * 0.8
X = centers_true.repeat_interleave(5, dim=0) + offsets
print(X.shape, X[:3])

k = 3
centroids = X[[0, 5, 6]].clone()   # deterministic init (two in the same cluster)
print(centroids)
for it in range(6):
    D = torch.cdist(X, centroids)
    labels = D.argmin(dim=1)
    inertia = D.min(dim=1).values.pow(2).sum()
    counts = torch.bincount(labels, minlength=k)
    sums = torch.zeros(k, 2).index_add_(0, labels, X)
    new = sums / counts.clamp(min=1).unsqueeze(1).float()
    shift = (new - centroids).norm(dim=1).max()
    print(f"it {it} inertia {inertia.item():.4f} counts {counts.tolist()} shift {shift.item():.4f}")
    centroids = new
    if shift < 1e-6:
        break
print(labels, centroids)

# same centroids via scatter_add_ and one-hot matmul
sums2 = torch.zeros(k, 2).scatter_add_(0, labels.unsqueeze(1).expand(-1, 2), X)
onehot = torch.nn.functional.one_hot(labels, k).float()
means3 = (onehot.T @ X) / onehot.sum(0, keepdim=True).T
print(torch.allclose(sums2, sums), torch.allclose(means3, centroids))

# cdist flavours
A = torch.tensor([[0., 0.], [1., 1.], [3., 4.]])
B = torch.tensor([[1., 0.], [0., 2.]])
print(torch.cdist(A, B))
print(torch.cdist(A, B, p=1))
print(torch.cdist(A, B, p=float('inf')))
print(torch.cdist(A, B, p=0))
print(torch.cdist(A, B, compute_mode='use_mm_for_euclid_dist'))
print(torch.cdist(A.unsqueeze(0), B.unsqueeze(0)).shape)
print(torch.allclose(torch.cdist(A, B) ** 2, (A.unsqueeze(1) - B.unsqueeze(0)).pow(2).sum(-1)))
print(torch.pdist(A), torch.nn.functional.pairwise_distance(A[:2], B))

# sklearn-style predict and the silhouette-like gap
D = torch.cdist(X, centroids)
vals, idx = D.topk(2, dim=1, largest=False)
print(idx[:5], (vals[:, 1] - vals[:, 0]).mean())
print(torch.cdist(torch.tensor([[5.2, 4.9], [0.1, 5.5]]), centroids).argmin(1))

# soft k-means: gradients flow to the centroids through cdist
C = centroids.clone().requires_grad_(True)
Dsq = torch.cdist(X, C) ** 2
resp = torch.softmax(-Dsq, dim=1)
loss = (resp * Dsq).sum()
loss.backward()
print(loss.grad_fn.name(), Dsq.grad_fn.name(), C.grad.shape)
print(C.grad.abs().max() < 1.0)
C2 = torch.tensor([[1., 1.], [2., 0.]], requires_grad=True)
torch.cdist(A, C2).sum().backward()
print(C2.grad)
C3 = torch.tensor([[1., 1.], [2., 0.]], requires_grad=True)
torch.cdist(A, C3, p=1).sum().backward()
print(C3.grad)

try:
    torch.cdist(A, torch.ones(2, 3))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.cdist(A, B, p=-1)
except RuntimeError as e:
    print(type(e).__name__, e)
