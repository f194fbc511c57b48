"""The one mapping of an attrs class to plain data: its :class:`Form`, built once from its attrs
fields, that every form of a value is made from.

- the codec's converter (``codec.make_converter``): the fields it writes and reads of a class
  with cache fields, and the caches it leaves out;
- the plain path (``plain.plain_data``, ``plain.plain_value``): the converter's answers for
  plain values, without cattrs: the fields in declared order, how each is read back;
- the wire form of an event (``codec.event_to_wire``): its tag, then its fields' values in
  declared order;
- the walk a state's digest is made by (``codec.canonical_plain``, ``identity``,
  ``state_hash`` and the full form's ``legacy_state_hash``): the fields in sorted order, each
  with its declared default (a field at its default left out of the identity).

So which fields a class has on the wire, in a document and in a digest, in what order, and
which default leaves one out, is said once, here; the walks differ only in what they make of
the values (lists or tuples; declared or sorted order), and tests hold each to the converter.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import attrs

CACHE = "tribes.cache"
"""Metadata key of a state field that is a cache of others: never serialized, never hashed; a
class with such fields rebuilds them in ``classmethod from_fields(**fields)``."""

NO_DEFAULT: Any = object()
"""The default of a field that has none (never left out of an identity)."""

FACTORY: Any = type(attrs.Factory(tuple))
"""The class of ``attrs.Factory(...)`` (its stubs call it a function)."""

Getter = Callable[[Any], tuple[Any, ...]]


class Form:
    """The mapping of one attrs class (:func:`form`), made once: its serialized fields (every
    field but the caches), in declared order and in sorted order, a getter of their values in
    each order, and their declared defaults in sorted order."""

    __slots__ = (
        "caches",
        "cls",
        "defaults",
        "fields",
        "names",
        "sorted_names",
        "sorted_values",
        "values",
    )

    def __init__(self, cls: type) -> None:
        self.cls = cls
        every = attrs.fields(cls)
        self.caches: tuple[str, ...] = tuple(a.name for a in every if a.metadata.get(CACHE))
        """The cache fields: never written, never hashed."""
        self.fields: tuple[attrs.Attribute[Any], ...] = tuple(
            a for a in every if not a.metadata.get(CACHE)
        )
        """The fields the codec writes and reads, in declared order, with types and defaults."""
        self.names: tuple[str, ...] = tuple(a.name for a in self.fields)
        self.values: Getter = _getter(self.names)
        """The values of :attr:`names`, in their order (the wire form of an event)."""
        kept = sorted(self.fields, key=_name)
        self.sorted_names: tuple[str, ...] = tuple(a.name for a in kept)
        self.sorted_values: Getter = _getter(self.sorted_names)
        defaults = tuple(_declared_default(a.default) for a in kept)
        self.defaults: tuple[Any, ...] = () if all(d is NO_DEFAULT for d in defaults) else defaults
        """Per field in sorted order, the default the identity compares with: NO_DEFAULT for
        none, the value a factory makes (once), the factory itself when it takes the object;
        ``()`` when no field has one (nothing to leave out)."""


def form(cls: type) -> Form:
    """The :class:`Form` of an attrs class, made on first use."""
    found = _FORMS.get(cls)
    if found is None:
        found = _FORMS[cls] = Form(cls)
    return found


_FORMS: dict[type, Form] = {}


def _getter(names: tuple[str, ...]) -> Getter:
    if len(names) < 2:  # attrgetter takes at least one name, and gives a tuple from two
        return lambda value: tuple(getattr(value, name) for name in names)
    return operator.attrgetter(*names)


def _name(field: attrs.Attribute[Any]) -> str:
    return field.name


def _declared_default(default: Any) -> Any:
    if default is attrs.NOTHING:
        return NO_DEFAULT
    if type(default) is FACTORY:
        return default if default.takes_self else default.factory()
    return default
