# The "Adversarial Example Generation" (FGSM) tutorial, scaled down: a small LeNet-style
# classifier in eval mode, input.requires_grad = True, F.nll_loss on log_softmax, data_grad =
# data.grad.data, fgsm_attack with sign() and clamp, accuracy over several epsilons,
# and the tutorial's bookkeeping of adversarial examples via squeeze().detach().cpu().numpy().
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.fc1 = nn.Linear(4 * 3 * 3, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


model = Net()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.91 + i).view(p.shape) * 0.8)
model.eval()
images = (torch.cos(torch.arange(6 * 64, dtype=torch.float32) * 0.13) * 0.5 + 0.5).view(6, 1, 8, 8)
with torch.no_grad():
    targets = model(images).argmax(1)
targets[4] = (targets[4] + 1) % 3
print(targets)


def test(model, epsilon):
    correct = 0
    adv_examples = []
    for data, target in zip(images.split(1), targets.split(1)):
        data = data.clone()
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        perturbed_data = fgsm_attack(data, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():
            correct += 1
        elif len(adv_examples) < 2:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
    final_acc = correct / float(len(images))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(images)} = {final_acc}")
    return final_acc, adv_examples


accuracies, examples = [], []
for eps in [0, .1, .25, .5, 1.0]:
    acc, ex = test(model, eps)
    accuracies.append(acc)
    examples.append(ex)
print(accuracies, [len(e) for e in examples])
for orig, adv, ex in examples[-1]:
    print(orig, "->", adv, ex.shape, ex.dtype, round(float(ex.min()), 4), round(float(ex.max()), 4))
x = images[:1].clone().requires_grad_()
F.nll_loss(model(x), targets[:1]).backward()
print(x.grad.sign()[0, 0, :2], x.grad.abs().max())
