# The classic "Facial similarity with Siamese networks in PyTorch" blog post, scaled down:
# a shared-weight twin (ReflectionPad2d, Conv2d, ReLU, BatchNorm2d, then Linear layers),
# forward_once / forward, the ContrastiveLoss module with F.pairwise_distance and clamp, Adam,
# thresholded same/different predictions, plus CosineEmbeddingLoss and TripletMarginLoss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SiameseNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn1 = nn.Sequential(
            nn.ReflectionPad2d(1), nn.Conv2d(1, 3, kernel_size=3), nn.ReLU(inplace=True), nn.BatchNorm2d(3),
            nn.ReflectionPad2d(1), nn.Conv2d(3, 4, kernel_size=3), nn.ReLU(inplace=True), nn.BatchNorm2d(4))
        self.fc1 = nn.Sequential(nn.Linear(4 * 6 * 6, 10), nn.ReLU(inplace=True), nn.Linear(10, 3))

    def forward_once(self, x):
        output = self.cnn1(x)
        output = output.view(output.size()[0], -1)
        return self.fc1(output)

    def forward(self, input1, input2):
        return self.forward_once(input1), self.forward_once(input2)


class ContrastiveLoss(torch.nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, output1, output2, label):
        euclidean_distance = F.pairwise_distance(output1, output2, keepdim=True)
        loss_contrastive = torch.mean((1 - label) * torch.pow(euclidean_distance, 2) +
                                      (label) * torch.pow(torch.clamp(self.margin - euclidean_distance, min=0.0), 2))
        return loss_contrastive


net = SiameseNetwork()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        if p.dim() > 1:
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.29 + i).view(p.shape) * 0.3)
        elif i in (2, 6):  # BatchNorm weights
            p.fill_(1.0)
        else:
            p.copy_(torch.linspace(-0.1, 0.1, p.numel()))
print(net)
img0 = torch.cos(torch.arange(4 * 36, dtype=torch.float32) * 0.2).view(4, 1, 6, 6)
img1 = torch.cat([img0[:2] * 0.9 + 0.05, img0[2:].flip(-1)])
label = torch.tensor([[0.], [0.], [1.], [1.]])  # 1 = different
pad = nn.ReflectionPad2d(1)
print(pad, pad(img0[:1, :, :3, :3])[0, 0])
criterion = ContrastiveLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.005)
for epoch in range(4):
    optimizer.zero_grad()
    output1, output2 = net(img0, img1)
    loss_contrastive = criterion(output1, output2, label)
    loss_contrastive.backward()
    optimizer.step()
    print("Epoch number {}  Current loss {:.4f}".format(epoch, loss_contrastive.item()))
print(output1.shape, loss_contrastive.grad_fn.name(), net.cnn1[1].weight.grad[0, 0])
print(net.cnn1[3].running_mean, net.cnn1[7].num_batches_tracked)
net.eval()
with torch.no_grad():
    o1, o2 = net(img0, img1)
    dist = F.pairwise_distance(o1, o2)
print(dist, (dist > 1.0).long(), F.pairwise_distance(o1, o2, keepdim=True).shape)

# the two losses PyTorch ships for the same idea
o1, o2 = net(img0, img1)
cos_target = 1 - 2 * label.view(-1)  # +1 similar, -1 dissimilar
cel = nn.CosineEmbeddingLoss(margin=0.2)
print(cel, cel(o1, o2, cos_target), F.cosine_similarity(o1, o2))
tml = nn.TripletMarginLoss(margin=1.0, p=2)
anchor, positive, negative = o1[:2], o2[:2], o2[2:]
t = tml(anchor, positive, negative)
t.backward()
print(tml, t, t.grad_fn.name(), net.fc1[2].weight.grad[:, :3])
