"""Whole training steps with NAdam, RAdam and Adagrad (lr_decay) compile without a graph break:
their step-dependent scalars come from the step tensor, and the parameters follow eager
training."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn

from compile_helpers import assert_close, kernel_cache  # noqa: F401

STEPS = 8  # RAdam with beta2 = 0.999: rho_t <= 5 for steps 1-5, rectified from step 6 on


def _mlp(seed):
    tapegrad.manual_seed(seed)
    return nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 4))


def _mlp_step_function(model, optimizer):
    loss_fn = nn.CrossEntropyLoss()

    def step(inputs, targets):
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        return loss
    return step


@pytest.mark.parametrize("optimizer, options", [
    ("NAdam", dict(lr=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(lr=0.01)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.1)),
], ids=["nadam", "nadam-decoupled", "radam", "adagrad-lr-decay"])
def test_training_steps_compile_and_match_eager(optimizer, options):
    tapegrad.manual_seed(1)
    batches = [(tapegrad.randn(8, 12), tapegrad.randint(0, 4, (8,))) for _ in range(2)]
    results = {}
    for mode in ("eager", "compiled"):
        model = _mlp(0)
        instance = getattr(tapegrad.optim, optimizer)(model.parameters(), **options)
        step = _mlp_step_function(model, instance)
        if mode == "compiled":
            step = tapegrad.compile(step, fullgraph=True)  # raises on any graph break
        losses = [step(*batches[i % 2]).item() for i in range(STEPS)]
        results[mode] = (losses, [p.detach().clone() for p in model.parameters()],
                         instance.state[model[0].weight])
        if mode == "compiled":
            assert len(step.explain().specializations) == 1
    np.testing.assert_allclose(results["compiled"][0], results["eager"][0], rtol=1e-5)
    for got, want in zip(results["compiled"][1], results["eager"][1]):
        assert_close(got, want, rtol=1e-5, atol=1e-6, what="parameter")
    compiled_state, eager_state = results["compiled"][2], results["eager"][2]
    assert list(compiled_state) == list(eager_state)
    for key in eager_state:  # the step count, and NAdam's mu_product, kept in the kernel
        assert_close(compiled_state[key], eager_state[key], rtol=1e-5, atol=1e-6, what=key)
    assert compiled_state["step"].item() == STEPS
