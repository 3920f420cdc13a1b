# Checking which warnings a likelihood computation emits (a pytest-style check written as a script):
# warnings.catch_warnings(record=True) + simplefilter("always") around KLs and log-probs that are
# legitimately infinite; PyTorch emits no RuntimeWarning for inf/nan arithmetic.
import warnings
import torch
import torch.distributions as D

cases = {
    "pareto||normal (alpha<=2)": lambda: D.kl_divergence(D.Pareto(torch.tensor(1.0), torch.tensor(2.0)),
                                                         D.Normal(torch.tensor(0.0), torch.tensor(1.0))),
    "uniform||uniform disjoint": lambda: D.kl_divergence(D.Uniform(0.0, 2.0), D.Uniform(0.5, 1.0)),
    "exp log_prob at 0 rate": lambda: D.Gamma(torch.tensor(0.5), torch.tensor(1.0)).log_prob(torch.tensor(0.0)),
    "bernoulli probs 0/1": lambda: D.Bernoulli(probs=torch.tensor([0.0, 1.0])).entropy(),
}
for name, fn in cases.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn()
    print(f"{name:28s}", value, "warnings:", [str(w.message) for w in caught])
