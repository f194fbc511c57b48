"""Bonus Dice move text: ``roll`` and ``stop``."""

from __future__ import annotations

from tribes.core.errors import BadNotation
from tribes.core.events import Event
from tribes_dice.events import Rolled, Stopped


def parse(text: str) -> Event:
    word = text.strip().lower()
    if word == "roll":
        return Rolled()
    if word == "stop":
        return Stopped()
    raise BadNotation(f"cannot read move '{text}': a Bonus Dice move is 'roll' or 'stop'")


def format(event: Event) -> str:
    if isinstance(event, Rolled | Stopped):
        return event.NAME
    raise BadNotation(f"'{type(event).__name__}' is not a Bonus Dice event")
