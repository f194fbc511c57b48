"""The one error root of tribes and its kinds.

Every failure a user can cause is a :class:`TribesError`; the CLI prints its message as one line
and exits with :attr:`TribesError.exit_code`. Anything else escaping is a bug.
"""

from __future__ import annotations

import copy
from typing import Self


class TribesError(Exception):
    """Root of every error tribes raises on purpose."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def within(self, context: str) -> Self:
        """The same error, every attribute kept, its message placed in ``context`` (a file, an
        event): ``"game.tribes: event 3: ..."``."""
        placed = copy.copy(self)
        placed.message = f"{context}: {self.message}"
        placed.args = (placed.message,)
        return placed


class UsageError(TribesError):
    """The command was called wrongly (a bad option value, a missing argument)."""

    exit_code = 2


class UnknownGame(UsageError):
    """A game name that the registry does not know."""


class BadOption(UsageError):
    """A game option that the game does not take, or a value it refuses."""


class IllegalMove(TribesError):
    """A move that breaks a rule: ``reason`` says how, ``rule`` names it (``"C9"``); once placed
    by :meth:`at`, ``move`` is its notation and ``index`` its event number."""

    def __init__(self, reason: str, *, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.move: str | None = None
        self.index: int | None = None

    def at(self, move: str, index: int) -> Self:
        """The same error, placed: which move, which event number."""
        rule = f" ({self.rule})" if self.rule else ""
        placed = copy.copy(self)
        placed.move, placed.index = move, index
        placed.message = f"illegal move '{move}' at event {index}: {self.reason}{rule}"
        placed.args = (placed.message,)
        return placed


class GameOver(IllegalMove):
    """A move after the game has ended."""


class BadNotation(TribesError):
    """Move text that cannot be parsed; says what was expected."""


class BadPosition(TribesError):
    """A starting position that is not valid for its game."""


class BadData(TribesError):
    """A board, tile or chart file that fails validation."""


class LogError(TribesError):
    """A log file that cannot be read as it is; ``index`` is the event number involved, if any."""

    def __init__(self, message: str, *, path: str | None = None, index: int | None = None) -> None:
        super().__init__(message if path is None else f"{path}: {message}")
        self.path = path
        self.index = index


class CorruptLog(LogError):
    """A record that is damaged, torn or tampered with."""


class UnsupportedVersion(LogError):
    """A log of a format version, or an event of a schema version, that this tribes does not read."""
