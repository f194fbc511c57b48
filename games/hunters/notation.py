"""Hunters and Gatherers move text (``parse(format(e)) == e``), one shell word without spaces:

- ``1,0N`` — the drawn tile at (1, 0), its data's north side facing north (rotation 0);
  ``E`` ``S`` ``W`` are rotations 1 2 3 (the direction the data's north side faces);
- ``1,0N+g3`` — with a gatherer on its feature 3; ``f`` fisher, ``h`` hunter, ``hut`` hut.
  Parsing also takes lower-case rotations and whole words (``+gatherer3``).
"""

from __future__ import annotations

import re

from tribes.core.errors import BadNotation
from tribes.core.events import Event
from tribes.games.hunters.events import TilePlaced

EXPECTED = (
    "a Hunters and Gatherers move is X,YR with R one of N E S W, optionally +KF with K one of "
    "g, f, h, hut and F a feature id (e.g. 1,0N+g3)"
)
ROTATIONS = "NESW"
SHORT = {"gatherer": "g", "fisher": "f", "hunter": "h", "hut": "hut"}
_LONG = {**{v: k for k, v in SHORT.items()}, **{k: k for k in SHORT}}
_MOVE = re.compile(
    r"^(-?[0-9]{1,4}),(-?[0-9]{1,4})([NESWnesw])(?:\+(hut|hunter|h|gatherer|g|fisher|f)([0-9]{1,3}))?$"
)


def parse(text: str) -> Event:
    match = _MOVE.match(text.strip())
    if not match:
        raise BadNotation(f"cannot read move '{text}': {EXPECTED}")
    x, y, rotation, piece, feature = match.groups()
    return TilePlaced(
        x=int(x),
        y=int(y),
        rotation=ROTATIONS.index(rotation.upper()),
        piece=None if piece is None else _LONG[piece],
        feature=None if feature is None else int(feature),
    )


def format(event: Event) -> str:
    if not isinstance(event, TilePlaced):
        raise BadNotation(f"'{type(event).__name__}' is not a Hunters and Gatherers event")
    text = placement_text(event.x, event.y, event.rotation)
    if event.piece is not None:
        text += option_text(event.piece, event.feature)
    return text


def placement_text(x: int, y: int, rotation: int) -> str:
    """The text of a placement without a piece (``1,0N``)."""
    return f"{x},{y}{ROTATIONS[rotation % 4]}"


def option_text(piece: str, feature: int | None) -> str:
    """What a piece on a feature adds to its placement's text (``+g3``)."""
    return f"+{SHORT.get(piece, piece)}{feature}"
