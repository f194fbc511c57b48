"""The header of a game log: what the log is a log of. Part of the game's vocabulary, so it lives
in core; how it is stored is the log format's business (``tribes.events``)."""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.prng import Chance
from tribes.core.reprs import fields_repr


@attrs.frozen(kw_only=True)
class Header:
    """What a log is a log of: the game, its rules version, the seed, the seats, the options and
    optionally a starting position. ``schema`` is each event type's schema version when written.
    ``files`` holds the text of every file an option names (``board=PATH``): read once, when the
    log is made, so that a log is whole in itself and reading it never opens a path."""

    game: str
    rules_version: int
    seed: int
    seats: tuple[str, ...]
    options: dict[str, str] = attrs.field(factory=dict)
    position: Any = None
    meta: dict[str, Any] = attrs.field(factory=dict)
    schema: dict[str, int] = attrs.field(factory=dict)
    files: dict[str, str] = attrs.field(factory=dict)

    __repr__ = fields_repr

    @property
    def chance(self) -> Chance:
        """What a game draws from: the named streams of this log's seed."""
        return Chance(self.seed)
