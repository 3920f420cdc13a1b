# Inspecting raw memory: print(t.untyped_storage()) shows one byte per line and a header.
import torch

t = torch.tensor([1.0, 2.0])
print(t.untyped_storage())
print(torch.tensor([1, 256], dtype=torch.int16).untyped_storage())
print(torch.tensor([], dtype=torch.float64).untyped_storage())
print(len(t.untyped_storage()), t.untyped_storage().nbytes())
