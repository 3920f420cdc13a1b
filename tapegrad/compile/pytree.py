"""Flattening nested arguments and results (tuples, lists, dicts) into leaves and back."""

__all__ = ["flatten", "unflatten", "leaf_names"]


def flatten(obj):
    """``(leaves, spec)``: the non-container objects in order, and the shape of the nesting."""
    leaves = []
    spec = _flatten(obj, leaves)
    return leaves, spec


def _flatten(obj, leaves):
    if type(obj) in (tuple, list):
        return (type(obj), tuple(_flatten(item, leaves) for item in obj))
    if type(obj) is dict:
        return (dict, tuple((key, _flatten(item, leaves)) for key, item in obj.items()))
    leaves.append(obj)
    return None


def unflatten(spec, leaves):
    iterator = iter(leaves)
    return _unflatten(spec, iterator)


def _unflatten(spec, leaves):
    if spec is None:
        return next(leaves)
    kind, children = spec
    if kind is dict:
        return {key: _unflatten(child, leaves) for key, child in children}
    return kind(_unflatten(child, leaves) for child in children)


def leaf_names(spec, root):
    """A readable name per leaf: ``x``, ``batch[0]``, ``config['lr']``."""
    names = []
    _names(spec, root, names)
    return names


def _names(spec, prefix, names):
    if spec is None:
        names.append(prefix)
        return
    kind, children = spec
    if kind is dict:
        for key, child in children:
            _names(child, f"{prefix}[{key!r}]", names)
    else:
        for i, child in enumerate(children):
            _names(child, f"{prefix}[{i}]", names)
