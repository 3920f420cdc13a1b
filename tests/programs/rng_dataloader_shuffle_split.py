# Seeded data pipelines: random_split, a shuffling DataLoader, a sampler with replacement and a
# weighted sampler draw from the seeded generator, so the batches are the same every run.
import torch
from torch.utils.data import (DataLoader, RandomSampler, SubsetRandomSampler, TensorDataset,
                              WeightedRandomSampler, random_split)

torch.manual_seed(0)
features = torch.arange(20.0).reshape(10, 2)
labels = torch.arange(10)
dataset = TensorDataset(features, labels)

train, valid = random_split(dataset, [7, 3])
print("train indices:", train.indices)
print("valid indices:", valid.indices)

loader = DataLoader(train, batch_size=3, shuffle=True)
for epoch in range(2):
    print(f"epoch {epoch}:", [batch[1].tolist() for batch in loader])

with_replacement = RandomSampler(dataset, replacement=True, num_samples=12)
print("with replacement:", list(with_replacement))
print("subset sampler:", list(SubsetRandomSampler([10, 20, 30, 40])))
weights = [0.1, 0.1, 0.5, 0.3]
print("weighted:", list(WeightedRandomSampler(weights, 8)))
print("weighted, no replacement:", list(WeightedRandomSampler(weights, 3, replacement=False)))

g = torch.Generator().manual_seed(7)
print("own generator:", [b[1].tolist() for b in DataLoader(dataset, batch_size=4, shuffle=True,
                                                           generator=g)])
