"""Clans move text: ``12-13`` moves the huts of 12 onto 13; ``order 37 21`` founds villages 37
then 21. ``parse(format(e)) == e`` for every event."""

from __future__ import annotations

import re

from tribes.core.errors import BadNotation
from tribes.core.events import Event
from tribes.games.clans.events import HutsMoved, OrderChosen

_MOVE = re.compile(r"^\s*([0-9]{1,3})\s*[->]\s*([0-9]{1,3})\s*$")
_ORDER = re.compile(r"^\s*order((?:\s+[0-9]{1,3}){1,12})\s*$", re.IGNORECASE)

EXPECTED = "a Clans move is SOURCE-TARGET (e.g. 12-13) or 'order' with villages (e.g. order 37 21)"


def parse(text: str) -> Event:
    if match := _MOVE.match(text):
        return HutsMoved(source=int(match[1]), target=int(match[2]))
    if match := _ORDER.match(text):
        return OrderChosen(villages=tuple(int(v) for v in match[1].split()))
    raise BadNotation(f"cannot read move '{text}': {EXPECTED}")


def format(event: Event) -> str:
    if isinstance(event, HutsMoved):
        return f"{event.source}-{event.target}"
    if isinstance(event, OrderChosen):
        return "order " + " ".join(map(str, event.villages))
    raise BadNotation(f"'{type(event).__name__}' is not a Clans event")
