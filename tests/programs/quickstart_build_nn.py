# Quickstart "Build the Neural Network": a FashionMNIST-shaped MLP on deterministic inputs.
import torch
from torch import nn

device = (
    "cuda" if torch.cuda.is_available()
    else "mps" if torch.backends.mps.is_available()
    else "cpu"
)
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.013 + i).reshape(p.shape) * 0.05)

X = torch.cos(torch.arange(28 * 28, dtype=torch.float32) * 0.1).reshape(1, 28, 28).to(device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
print(pred_probab)

input_image = torch.linspace(0, 1, 3 * 28 * 28).reshape(3, 28, 28)
print(input_image.size())
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
hidden1 = nn.ReLU()(hidden1)
print(hidden1.shape, hidden1.min().item() >= 0)

print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
