"""Train a multi-layer perceptron on scikit-learn's handwritten digits; prints the test accuracy.

    pip install -e ".[examples]" && python examples/digits_mlp.py    # about 98 %, a few seconds
"""
from tapegrad import nn

from digits_training import main


def build_model():
    return nn.Sequential(
        nn.Linear(64, 128), nn.ReLU(),
        nn.Linear(128, 64), nn.ReLU(),
        nn.Linear(64, 10),
    )


if __name__ == "__main__":
    main(__doc__.splitlines()[0], build_model, image_shape=(64,), defaults={"epochs": 20,
                                                                            "lr": 3e-3})
