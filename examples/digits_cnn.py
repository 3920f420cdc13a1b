"""Train a small convolutional network on scikit-learn's handwritten digits; prints the test
accuracy.

    pip install -e ".[examples]" && python examples/digits_cnn.py
"""
from tapegrad import nn

from digits_training import main


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 16, kernel_size=3, padding=1), nn.ReLU(),   # 16 x 8 x 8
        nn.MaxPool2d(2),                                         # 16 x 4 x 4
        nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.ReLU(),  # 32 x 4 x 4
        nn.MaxPool2d(2),                                         # 32 x 2 x 2
        nn.Flatten(),
        nn.Linear(32 * 2 * 2, 10),
    )


if __name__ == "__main__":
    main(__doc__.splitlines()[0], build_model, image_shape=(1, 8, 8), defaults={"epochs": 15,
                                                                                "lr": 3e-3})
