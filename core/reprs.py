"""One ``__repr__`` for tribes' attrs classes, the one attrs would write for each.

attrs writes a class's ``__repr__`` as Python source and compiles it, at import: ~1 M
instructions a class (Python 3.11 parses each ``{self.field!r}`` of its f-string apart), a
third of what defining an attrs class costs, and ``tribes show`` of a short log defines some
thirty of them before it reads a byte. A class that has a ``__repr__`` of its own is left
alone by attrs (its ``auto_detect``), so the classes every command loads take this one
(``__repr__ = fields_repr`` in their body; events and effects from their base classes): the
same text, read from the class's fields when a repr is asked for, which is seldom.
``tests/core/test_reprs.py`` compares it with the repr attrs writes.
"""

from __future__ import annotations

import threading
from typing import Any

import attrs

_SHOWING = threading.local()
"""The objects whose repr is being written, by id, in this thread (``showing``): an object met
again inside its own repr is written ``...``, as attrs does."""


def fields_repr(self: Any) -> str:
    """``Name(field=value, ...)`` as attrs writes it: the fields whose ``repr`` is not off, each
    value by its field's repr function (``repr`` unless one is given); a field without a value
    (``init=False``, not yet set) as ``NOTHING``; an object inside its own repr as ``...``."""
    try:
        showing: set[int] = _SHOWING.showing
    except AttributeError:
        showing = _SHOWING.showing = set()
    if id(self) in showing:
        return "..."
    showing.add(id(self))
    try:
        parts = []
        for field in attrs.fields(type(self)):
            if field.repr is False:
                continue
            value = (
                getattr(self, field.name)
                if field.init
                else getattr(self, field.name, attrs.NOTHING)
            )
            shown = repr(value) if field.repr is True else f"{field.repr(value)}"
            parts.append(f"{field.name}={shown}")
        name = self.__class__.__qualname__.rsplit(">.", 1)[-1]
        return f"{name}({', '.join(parts)})"
    finally:
        showing.discard(id(self))
