# Beginner MNIST-style loop: device, .to(device), x.view(-1, 28*28), torch.max(outputs.data, 1).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
print(device, torch.cuda.is_available())
torch.manual_seed(42)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(28 * 28, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = x.view(-1, 28 * 28)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


net = Net().to(device)
with torch.no_grad():
    net.fc1.weight.copy_(torch.sin(torch.arange(32 * 784, dtype=torch.float32)).view(32, 784) * 0.05)
    net.fc1.bias.fill_(0.01)
    net.fc2.weight.copy_(torch.cos(torch.arange(320, dtype=torch.float32)).view(10, 32) * 0.2)
    net.fc2.bias.zero_()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
criterion = nn.NLLLoss()

inputs_all = torch.cos(torch.arange(40 * 784, dtype=torch.float32) * 0.003).view(40, 1, 28, 28)
labels_all = torch.arange(40) % 10
for epoch in range(2):
    running_loss = 0.0
    for i in range(4):
        inputs, labels = inputs_all[i * 10:(i + 1) * 10].to(device), labels_all[i * 10:(i + 1) * 10].to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print('[%d] loss: %.3f' % (epoch + 1, running_loss / 4))

correct = 0
total = 0
with torch.no_grad():
    outputs = net(inputs_all)
    _, predicted = torch.max(outputs.data, 1)
    total += labels_all.size(0)
    correct += (predicted == labels_all).sum().item()
print('Accuracy: %d %%' % (100 * correct / total), correct, total)
print(predicted.dtype, predicted.shape, type(correct).__name__)
print(outputs.exp().sum(1)[:3])
