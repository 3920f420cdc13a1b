"""``torch.return_types``: the named results of ``max(dim)``, ``sort``, ``cummax``, ``linalg.qr`` …

PyTorch's are C "structseq" types: tuples whose fields are also attributes, with ``n_fields``,
``n_sequence_fields`` and ``n_unnamed_fields`` (and neither ``_fields`` nor ``_asdict``: they are
not namedtuples, so ``default_collate`` treats them as plain sequences). Each prints as
``torch.return_types.<name>(\\nvalues=...,\\nindices=...)``; an ``out=`` call returns the ``<name>_out``
twin. ``structseq`` makes one such type and registers it here under its name.
"""

__all__ = ["out_type", "structseq"]


def structseq(name, fields):
    """The result type ``name`` with ``fields`` (a space-separated string), made once: a second
    request for the same name returns the registered type. Its ``<name>_out`` twin is made with
    it, as PyTorch has one for each (histogramdd's excepted).

    ``T(values, indices)`` builds one field by field (how tapegrad's functions build them);
    ``T((values, indices))``, one sequence, as PyTorch's constructor takes it, works too."""
    registered = globals().get(name)
    if registered is not None:
        return registered
    fields = tuple(fields.split())
    count = len(fields)

    def __new__(cls, *values):
        if len(values) != count:  # not field by field: PyTorch's (sequence, dict=None)
            values = _sequence_argument(name, count, values)
        return tuple.__new__(cls, values)

    def __repr__(self):
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"torch.return_types.{name}(\n{body})"

    def __getattr__(self, attribute):  # (reached only when the lookup has failed)
        raise AttributeError(f"'torch.return_types.{name}' object has no attribute "
                             f"'{attribute}'")

    def refuse_change(self, attribute, *value):
        """Setting or deleting: fields are read-only, and there is nowhere for new attributes."""
        if attribute in fields:
            raise AttributeError("readonly attribute")
        __getattr__(self, attribute)

    def __reduce__(self):
        return (_rebuild, (name, tuple(self)))

    namespace = {"__slots__": (), "__new__": __new__, "__repr__": __repr__,
                 "__reduce__": __reduce__, "__getattr__": __getattr__,
                 "__setattr__": refuse_change, "__delattr__": refuse_change,
                 "__module__": "torch.return_types",
                 "__qualname__": name, "__match_args__": fields,
                 "n_fields": count, "n_sequence_fields": count, "n_unnamed_fields": 0}
    for position, field in enumerate(fields):
        namespace[field] = property(lambda self, i=position: tuple.__getitem__(self, i))
    result = type(name, (tuple,), namespace)
    globals()[name] = result
    __all__.append(name)
    if not name.startswith("_") and not name.endswith("_out") and name not in _WITHOUT_OUT_FORM:
        out_type(result)
    return result


def _sequence_argument(name, count, arguments):
    """The fields as PyTorch's constructor takes them, ``(sequence, dict=None)``, checked as
    CPython's structseq checks them."""
    if not arguments:
        raise TypeError("structseq() missing required argument 'sequence' (pos 1)")
    if len(arguments) > 2:
        raise TypeError(f"structseq() takes at most 2 arguments ({len(arguments)} given)")
    try:
        values = tuple(arguments[0])
    except TypeError:
        raise TypeError("constructor requires a sequence") from None
    if len(arguments) == 2 and not isinstance(arguments[1], dict):
        raise TypeError(f"torch.return_types.{name}() takes a dict as second arg, if any")
    if len(values) != count:
        raise TypeError(f"torch.return_types.{name}() takes a {count}-sequence "
                        f"({len(values)}-sequence given)")
    return values


_WITHOUT_OUT_FORM = {"histogramdd"}  # PyTorch's functions with no out= form


def out_type(result_type):
    """The type ``out=`` calls return: ``torch.return_types.<name>_out``, same fields."""
    fields = " ".join(result_type.__match_args__)
    return structseq(result_type.__name__ + "_out", fields)


def _rebuild(name, values):
    """Unpickling: the registered type ``name`` around ``values``."""
    return globals()[name](*values)


for _name in ("max", "min", "sort", "topk", "kthvalue", "median", "nanmedian", "mode", "cummax",
              "cummin"):
    structseq(_name, "values indices")
structseq("aminmax", "min max")
structseq("frexp", "mantissa exponent")
structseq("histogram", "hist bin_edges")
del _name
