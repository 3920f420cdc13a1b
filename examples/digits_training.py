"""What the two digits examples share: the data, the training loop, the evaluation, the CLI.

The data is scikit-learn's bundled 8x8 handwritten digits (1,797 images, no download), split
80/20 into train and test sets with a fixed seed.
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from tqdm import tqdm

import tapegrad as torch
from tapegrad import nn
from tapegrad.utils.data import DataLoader, TensorDataset, random_split


def digits_datasets(image_shape, seed=0):
    """(train, test) TensorDatasets of images scaled to [0, 1] and their labels."""
    digits = load_digits()
    images = torch.tensor((digits.data / 16.0).astype(np.float32)).reshape(-1, *image_shape)
    labels = torch.tensor(digits.target)
    full = TensorDataset(images, labels)
    test_size = len(full) // 5
    train, test = random_split(full, [len(full) - test_size, test_size],
                               generator=torch.Generator().manual_seed(seed))
    return train, test


def train(model, train_set, *, epochs, batch_size, lr, seed, progress=True):
    """Adam on cross-entropy, with a cosine learning-rate schedule; returns the last epoch's
    mean training loss."""
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(seed))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    bar = tqdm(total=epochs * len(loader), disable=not progress, unit="step")
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for images, labels in loader:
            loss = loss_fn(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
            bar.update()
        scheduler.step()
        bar.set_postfix(epoch=epoch + 1, loss=f"{total / len(loader):.4f}")
    bar.close()
    return total / len(loader)


def accuracy(model, dataset, batch_size=512):
    """Fraction of ``dataset`` that ``model`` classifies correctly."""
    model.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in DataLoader(dataset, batch_size=batch_size):
            correct += (model(images).argmax(dim=1) == labels).sum().item()
    return correct / len(dataset)


def main(description, build_model, image_shape, defaults):
    """Parse the command line, train, and print the test accuracy."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=defaults["epochs"])
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=defaults["lr"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compile", action="store_true",
                        help="train the model compiled by tapegrad.compile")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = build_model()
    if args.compile:
        model = torch.compile(model)
    train_set, test_set = digits_datasets(image_shape, args.seed)
    print(model)
    print(f"{len(train_set)} training and {len(test_set)} test images")
    start = time.perf_counter()
    train(model, train_set, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
          seed=args.seed)
    seconds = time.perf_counter() - start
    print(f"trained {args.epochs} epochs in {seconds:.1f} s")
    print(f"test accuracy: {100 * accuracy(model, test_set):.2f} %")
