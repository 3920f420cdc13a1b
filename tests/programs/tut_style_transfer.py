# The "Neural Transfer Using PyTorch" tutorial, scaled down: a frozen small conv feature
# extractor stands in for VGG19; ContentLoss/StyleLoss modules (Gram matrix, mse_loss against
# detached targets) are spliced into a new nn.Sequential after chosen conv layers, the model is
# trimmed after the last loss, and the input image is optimised with LBFGS and a closure.
import torch
import torch.nn as nn
import torch.nn.functional as F

imsize = 8
content_img = (torch.sin(torch.arange(3 * imsize * imsize, dtype=torch.float32) * 0.05) * 0.5 + 0.5).view(1, 3, imsize, imsize)
style_img = (torch.cos(torch.arange(3 * imsize * imsize, dtype=torch.float32) * 0.31) * 0.5 + 0.5).view(1, 3, imsize, imsize)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, input):
        self.loss = F.mse_loss(input, self.target)
        return input


def gram_matrix(input):
    a, b, c, d = input.size()
    features = input.view(a * b, c * d)
    G = torch.mm(features, features.t())
    return G.div(a * b * c * d)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        G = gram_matrix(input)
        self.loss = F.mse_loss(G, self.target)
        return input


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = torch.tensor(mean).view(-1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU(),
                    nn.MaxPool2d(2), nn.Conv2d(4, 6, 3, padding=1), nn.ReLU(), nn.Conv2d(6, 6, 3, padding=1))
with torch.no_grad():
    for i, p in enumerate(cnn.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.91 + i).view(p.shape) * 0.3)
cnn.eval().requires_grad_(False)
print(gram_matrix(style_img), gram_matrix(style_img).shape)

content_layers, style_layers = ['conv_3'], ['conv_1', 'conv_2', 'conv_3', 'conv_4']
normalization = Normalization([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
content_losses, style_losses = [], []
model = nn.Sequential(normalization)
i = 0
for layer in cnn.children():
    if isinstance(layer, nn.Conv2d):
        i += 1
        name = 'conv_{}'.format(i)
    elif isinstance(layer, nn.ReLU):
        name = 'relu_{}'.format(i)
        layer = nn.ReLU(inplace=False)
    elif isinstance(layer, nn.MaxPool2d):
        name = 'pool_{}'.format(i)
    else:
        raise RuntimeError('Unrecognized layer: {}'.format(layer.__class__.__name__))
    model.add_module(name, layer)
    if name in content_layers:
        target = model(content_img).detach()
        content_loss = ContentLoss(target)
        model.add_module("content_loss_{}".format(i), content_loss)
        content_losses.append(content_loss)
    if name in style_layers:
        target_feature = model(style_img).detach()
        style_loss = StyleLoss(target_feature)
        model.add_module("style_loss_{}".format(i), style_loss)
        style_losses.append(style_loss)
for i in range(len(model) - 1, -1, -1):
    if isinstance(model[i], ContentLoss) or isinstance(model[i], StyleLoss):
        break
model = model[:(i + 1)]
print(model)

input_img = content_img.clone()
input_img.requires_grad_(True)
model.eval()
model.requires_grad_(False)
print([p.requires_grad for p in model.parameters()][:2], input_img.requires_grad)
optimizer = torch.optim.LBFGS([input_img], max_iter=4)
style_weight, content_weight = 1000, 1
run = [0]
while run[0] <= 8:
    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * style_weight
        content_score = sum(cl.loss for cl in content_losses) * content_weight
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        if run[0] % 2 == 1:
            print("run {}: Style Loss : {:.1f} Content Loss: {:.4f}".format(run, style_score.item(), content_score.item()))
        return style_score + content_score
    optimizer.step(closure)
with torch.no_grad():
    input_img.clamp_(0, 1)
print(input_img.shape, input_img[0, 0, 0, :4], input_img.grad.abs().sum() > 0)
