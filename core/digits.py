"""Numbers read from text: only ASCII digits are digits.

``str.isdigit`` holds for ``²``, ``١`` and ``１`` and ``int`` reads the last two (``int("١")`` is
1): a game number, a territory or a worker count written so is refused by every reader of
tribes, which asks here instead of either."""

from __future__ import annotations

import re

_NATURAL = re.compile(r"[0-9]+", re.ASCII)
_INTEGER = re.compile(r"-?[0-9]+", re.ASCII)
MOST_DIGITS = 18
"""The longest number of digits read (``int`` refuses more than 4,300, and no count of tribes
needs more than a few)."""


def natural(text: str) -> int | None:
    """The number ``text`` spells in ASCII digits only (no sign, no space, at most
    :data:`MOST_DIGITS` digits), else None."""
    if len(text) > MOST_DIGITS or not _NATURAL.fullmatch(text):
        return None
    return int(text)


def integer(text: str) -> int | None:
    """As :func:`natural`, with an optional leading ``-``."""
    if len(text) > MOST_DIGITS + 1 or not _INTEGER.fullmatch(text):
        return None
    return int(text)
