# Layers that show up in model zoos and Q&A answers: Embedding.from_pretrained (freeze, padding_idx),
# PReLU (a learnable slope, one per channel), nn.Unfold / F.unfold (im2col: conv as a matmul) and
# nn.Fold, nn.Bilinear, nn.GLU and nn.RMSNorm — values, reprs, parameters and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

vectors = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]])
emb = nn.Embedding.from_pretrained(vectors)
print(emb, emb.weight.requires_grad, emb(torch.tensor([[2, 1], [0, 2]])))
emb2 = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=0)
out = emb2(torch.tensor([0, 1, 1, 2]))
out.sum().backward()
print(emb2, emb2.weight.grad)

prelu = nn.PReLU()
print(prelu, prelu.weight)
x = torch.linspace(-2, 2, 5)
print(prelu(x), prelu(x).grad_fn.name())
prelu_c = nn.PReLU(num_parameters=3, init=0.1)
img = torch.linspace(-1, 1, 2 * 3 * 2 * 2).view(2, 3, 2, 2)
with torch.no_grad():
    prelu_c.weight.copy_(torch.tensor([0.1, 0.2, 0.3]))
y = prelu_c(img)
y.sum().backward()
print(prelu_c, y[0, :, 0, 0], prelu_c.weight.grad)
print(F.prelu(x, torch.tensor([0.5])))

# im2col: a conv written as unfold + matmul matches F.conv2d
inp = torch.arange(1 * 2 * 4 * 4, dtype=torch.float32).view(1, 2, 4, 4)
weight = torch.linspace(-1, 1, 3 * 2 * 3 * 3).view(3, 2, 3, 3)
cols = F.unfold(inp, kernel_size=3, padding=1)
print(cols.shape, cols[0, :4, :4])
conv_as_mm = (weight.view(3, -1) @ cols).view(1, 3, 4, 4)
print(torch.allclose(conv_as_mm, F.conv2d(inp, weight, padding=1), atol=1e-4))
unfold = nn.Unfold(kernel_size=(2, 2), stride=2)
patches = unfold(inp)
print(unfold, patches.shape, patches[0, :, 0])
fold = nn.Fold(output_size=(4, 4), kernel_size=(2, 2), stride=2)
print(fold, torch.equal(fold(patches), inp))
ones = torch.ones(1, 1, 3, 3)
print(F.fold(F.unfold(ones, 2), (3, 3), 2))  # overlap counts

bil = nn.Bilinear(2, 3, 1)
with torch.no_grad():
    bil.weight.copy_(torch.arange(6.).view(1, 2, 3) / 10)
    bil.bias.fill_(0.5)
a, b = torch.tensor([[1.0, -1.0]]), torch.tensor([[0.5, 1.0, 2.0]])
print(bil, bil(a, b), [n for n, _ in bil.named_parameters()])

glu = nn.GLU(dim=-1)
print(glu, glu(torch.tensor([[1.0, 2.0, 0.0, -1.0]])))
rms = nn.RMSNorm(4, eps=1e-6)
print(rms, rms(torch.tensor([[1.0, 2.0, 3.0, 4.0]])))
