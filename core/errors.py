"""The one error root of tribes and its kinds.

Every failure a user can cause is a :class:`TribesError`; the CLI prints its message as one line
and exits with :attr:`TribesError.exit_code`. Anything else escaping is a bug.
"""

from __future__ import annotations

import copy

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``tribes --help`` loads this module (the registry's): no ``typing`` for it
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


class NotYourTurn(TribesError):
    """A move of another seat than the one the mover plays (``act --as SEAT``, ``TRIBES_SEAT``):
    the message names whose turn it is."""


class BadNotation(TribesError):
    """Move text that cannot be parsed; says what was expected."""


class BadPosition(TribesError):
    """A starting position that is not valid for its game."""


class BadData(TribesError):
    """A board, tile or chart file that fails validation."""


class LogError(TribesError):
    """A log file that cannot be read or written as it is.

    The data stay attributes, whatever context is added: ``reason`` (what is wrong, without the
    context), ``path``, ``index`` (the event number involved), ``offset`` (the byte of the record
    at fault) and ``record`` (what kind of record: "the header", "event 3", "the commit after
    event 2"). The message is built from them: ``PATH: RECORD (byte OFFSET): REASON``.
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | None = None,
        index: int | None = None,
        offset: int | None = None,
        record: str | None = None,
    ) -> None:
        self.reason = reason
        self.path = path
        self.index = index
        self.offset = offset
        self.record = record
        super().__init__(self._compose())

    def _compose(self) -> str:
        where = self.record or ""
        if self.offset is not None:
            where = f"{where} (byte {self.offset})" if where else f"byte {self.offset}"
        if not where:
            text = self.reason
        elif self.reason.startswith("is "):
            text = f"{where} {self.reason}"
        else:
            text = f"{where}: {self.reason}"
        return text if self.path is None else f"{self.path}: {text}"

    def placed(
        self,
        *,
        path: str | None = None,
        index: int | None = None,
        offset: int | None = None,
        record: str | None = None,
    ) -> Self:
        """The same error with context added (each given value replaces a missing one): a new
        error of the same kind, its data kept as attributes."""
        return type(self)(
            self.reason,
            path=self.path if self.path is not None else path,
            index=self.index if self.index is not None else index,
            offset=self.offset if self.offset is not None else offset,
            record=self.record if self.record is not None else record,
        )


class CorruptLog(LogError):
    """A record that is damaged, torn or tampered with."""


class UnsupportedVersion(LogError):
    """A log of a format version, or an event of a schema version, that this tribes does not read."""


class UncommittedTail(CorruptLog):
    """Records after a log's last commit: an append that was interrupted. ``records`` is how many,
    ``offset`` the byte where they start; ``tribes repair`` cuts them."""

    def __init__(
        self,
        reason: str,
        *,
        records: int = 0,
        path: str | None = None,
        index: int | None = None,
        offset: int | None = None,
        record: str | None = None,
    ) -> None:
        self.records = records
        super().__init__(reason, path=path, index=index, offset=offset, record=record)

    def _compose(self) -> str:  # the reason says where: "... after the last commit, at byte N"
        return self.reason if self.path is None else f"{self.path}: {self.reason}"

    def placed(
        self,
        *,
        path: str | None = None,
        index: int | None = None,
        offset: int | None = None,
        record: str | None = None,
    ) -> Self:
        placed = super().placed(path=path, index=index, offset=offset, record=record)
        placed.records = self.records
        return placed


class LogChanged(LogError):
    """Another writer changed the log between reading it and appending to it, so that the moves
    no longer apply."""


class LogBusy(LogError):
    """The log is locked by another writer for longer than tribes waits."""
