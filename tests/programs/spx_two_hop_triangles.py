# Graph analytics on a sparse adjacency: two-hop reachability with sparse @ sparse, triangle
# counting with (A @ A) * A, neighbour lists by indexing a row, and degree with keepdim sums.
import torch

edges = [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4), (4, 5), (3, 5), (5, 6), (1, 3)]
n = 7
rows = [a for a, b in edges] + [b for a, b in edges]
cols = [b for a, b in edges] + [a for a, b in edges]
A = torch.sparse_coo_tensor(torch.tensor([rows, cols]), torch.ones(len(rows)), (n, n)).coalesce()
print(A._nnz(), A.is_coalesced())

# neighbours of a few nodes by indexing the sparse matrix
for v in (0, 3, 6):
    row = A[v]
    print(v, row.layout, row.shape, row.coalesce().indices().flatten().tolist())

# two-hop paths
A2 = torch.sparse.mm(A, A)
print(A2.layout, A2.is_coalesced(), A2._nnz())
print(A2.to_dense().long())
walks = A @ A
print(torch.equal(walks.to_dense(), A2.to_dense()))

# triangles: (A @ A) restricted to the edges of A
closed = A2 * A
print(closed.is_coalesced(), closed._nnz())
triangles_per_node = torch.sparse.sum(closed, dim=1).to_dense() / 2
print("triangles per node", triangles_per_node.tolist())
print("total triangles", int(torch.sparse.sum(closed).item() / 6))

# degree with keepdim, as a column for normalisation
deg = A.sum(1, keepdim=True)
print(deg.shape, deg.is_sparse, deg.is_coalesced())
print(deg.to_dense().flatten().tolist())

# clustering coefficient
d = A.sum(1).to_dense()
cc = torch.where(d > 1, 2 * triangles_per_node / (d * (d - 1)), torch.zeros(n))
print([round(c, 3) for c in cc.tolist()])

# intersect two graphs elementwise: edges present in both
B = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2, 5, 6], [1, 0, 3, 6, 5]]),
                            torch.tensor([2.0, 2.0, 3.0, 4.0, 4.0]), (n, n)).coalesce()
both = A * B
print(both)
print(torch.sparse.mm(B, B.t().coalesce()))
