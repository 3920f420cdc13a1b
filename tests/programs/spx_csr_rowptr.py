# Graph code that stores the adjacency in CSR: dense.to_sparse_csr(), crow_indices/col_indices as
# a row-pointer array, out-degrees from the row pointers, CSR @ dense, and round trips.
import torch

adj = torch.tensor([[0., 1., 1., 0., 0.],
                    [1., 0., 0., 1., 0.],
                    [0., 0., 0., 1., 1.],
                    [0., 0., 0., 0., 0.],
                    [1., 0., 1., 0., 0.]])
csr = adj.to_sparse_csr()
print(csr)
print(csr.layout, csr.shape, csr.dtype, csr.is_sparse, csr.is_sparse_csr)
print("crow", csr.crow_indices())
print("col ", csr.col_indices())
print("vals", csr.values())
print("nnz", csr._nnz())

# degree from row pointers, as in many graph libraries
crow = csr.crow_indices()
deg = crow[1:] - crow[:-1]
print("out-degree", deg.tolist())
for r in range(csr.shape[0]):
    cols = csr.col_indices()[crow[r]:crow[r + 1]].tolist()
    print(f"node {r} -> {cols}")

# build one from its parts
rebuilt = torch.sparse_csr_tensor(csr.crow_indices(), csr.col_indices(),
                                  csr.values() * 2, size=(5, 5))
print(rebuilt.to_dense())

# CSR times a dense feature matrix
x = torch.arange(10.0).view(5, 2)
print(csr @ x)
print(torch.mm(csr, x))
print(torch.equal(csr.to_dense(), adj))

# COO <-> CSR
coo = adj.to_sparse()
print(coo.to_sparse_csr().crow_indices())
back = csr.to_sparse_coo()
print(back.layout, back.indices())
print(torch.sparse_csr_tensor(torch.tensor([0, 2, 3]), torch.tensor([0, 2, 1]),
                              torch.tensor([1.5, -2.0, 3.0])))
