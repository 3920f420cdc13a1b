"""``torch.utils._pytree``: nested tuples, lists, dicts (and ``OrderedDict``, namedtuples) of
leaves, flattened to a list of leaves and a ``TreeSpec`` to rebuild them.

``torch.func`` reads its nested inputs and outputs with it. The spec prints as PyTorch's
``TreeSpec`` does, because PyTorch's error messages about mismatched structures (``in_dims``,
``out_dims``, cotangents) show it. (The compiler flattens arguments with its own, leaner
``compile.pytree``: its specs are guard keys, hashed on every call.)
"""
import collections

__all__ = ["TreeSpec", "LeafSpec", "LEAF", "flatten", "unflatten", "broadcast_prefix", "pretty",
           "tree_flatten", "tree_unflatten", "tree_leaves", "tree_structure", "tree_map"]


class TreeSpec:
    """The shape of one node: its container type, what rebuilding it needs (dict keys, a
    namedtuple's class) and its children's specs."""

    __slots__ = ("type", "context", "children", "num_leaves")

    def __init__(self, node_type, context, children):
        self.type, self.context, self.children = node_type, context, children
        self.num_leaves = sum(child.num_leaves for child in children)

    def is_leaf(self):
        return False

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.is_leaf() == other.is_leaf()
                and self.type is other.type and self.context == other.context
                and self.children == other.children)

    def __repr__(self, indent=0):
        indent += 2
        children = (",\n" + " " * indent).join(child.__repr__(indent) for child in self.children)
        name = "namedtuple" if self.context is self.type else self.type.__name__
        return f"TreeSpec({name}, {self.context}, [{children}])"


class LeafSpec(TreeSpec):
    def __init__(self):
        super().__init__(None, None, [])
        self.num_leaves = 1

    def is_leaf(self):
        return True

    def __repr__(self, indent=0):
        return "*"


LEAF = LeafSpec()


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _is_structseq(value):
    """A ``torch.return_types`` result (``topk``, ``max(dim)`` …): rebuilt from one sequence."""
    return isinstance(value, tuple) and all(
        hasattr(type(value), field) for field in ("n_fields", "n_sequence_fields",
                                                  "n_unnamed_fields"))


def _node(value):
    """``(type, context, children)`` for a container, ``None`` for a leaf."""
    kind = type(value)
    if kind in (tuple, list) or _is_structseq(value):
        return kind, None, list(value)
    if _is_namedtuple(value):
        return kind, kind, list(value)
    if kind in (dict, collections.OrderedDict):
        return kind, list(value), list(value.values())
    return None


def flatten(tree):
    """``(leaves, spec)``."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves):
    node = _node(tree)
    if node is None:
        leaves.append(tree)
        return LEAF
    kind, context, children = node
    return TreeSpec(kind, context, [_flatten(child, leaves) for child in children])


def unflatten(leaves, spec):
    """The tree of shape ``spec`` holding ``leaves`` in order."""
    remaining = iter(leaves)
    return _build(spec, remaining)


def _build(spec, leaves):
    if spec.is_leaf():
        return next(leaves)
    children = [_build(child, leaves) for child in spec.children]
    if spec.type in (dict, collections.OrderedDict):
        return spec.type(zip(spec.context, children))
    if spec.context is not None:  # a namedtuple
        return spec.type(*children)
    return spec.type(children)


def broadcast_prefix(prefix, spec):
    """One value per leaf of ``spec``: each leaf of the ``prefix`` tree stands for the whole
    subtree at its place (``in_dims=(None, 0)`` for ``(params_dict, x)``); ``None`` when
    ``prefix`` is not a prefix of ``spec``'s structure."""
    values = []
    return values if _broadcast(prefix, spec, values) else None


def _broadcast(prefix, spec, values):
    node = _node(prefix)
    if node is None:
        values.extend([prefix] * spec.num_leaves)
        return True
    kind, context, children = node
    if spec.is_leaf() or kind is not spec.type or len(children) != len(spec.children):
        return False
    if kind in (dict, collections.OrderedDict):  # the same keys, in any order
        if set(context) != set(spec.context):
            return False
        children = [prefix[key] for key in spec.context]
    return all(_broadcast(child, child_spec, values)
               for child, child_spec in zip(children, spec.children))


class _Star:
    def __repr__(self):
        return "*"


def pretty(spec):
    """The structure as a Python value with ``*`` for leaves: ``(*,)``, ``{'s': *}``."""
    return repr(unflatten([_Star()] * spec.num_leaves, spec))


# -- PyTorch's names ------------------------------------------------------------------------------
def tree_flatten(tree):
    """``(leaves, spec)`` of ``tree``."""
    return flatten(tree)


def tree_unflatten(leaves, treespec):
    """The tree of shape ``treespec`` holding ``leaves`` in order."""
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the "
                         f"spec refers to a pytree that holds {treespec.num_leaves} items "
                         f"({treespec}).")
    return unflatten(leaves, treespec)


def tree_leaves(tree):
    return flatten(tree)[0]


def tree_structure(tree):
    return flatten(tree)[1]


def tree_map(func, tree, *rests):
    """``tree`` with each leaf replaced by ``func(leaf, *the leaves at its place in rests)``;
    each of ``rests`` has ``tree``'s structure."""
    leaves, spec = flatten(tree)
    others = []
    for rest in rests:
        rest_leaves, rest_spec = flatten(rest)
        if rest_spec != spec:
            raise ValueError(f"Tree structures do not match: {spec} and {rest_spec}")
        others.append(rest_leaves)
    return unflatten([func(*values) for values in zip(leaves, *others)], spec)
