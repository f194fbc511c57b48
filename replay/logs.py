"""Logs as users handle them: create, open (either form), replay with checks, append, convert.

This is the library under the CLI: every command is a call or two here. Making a header lives
in :mod:`tribes.replay.making`, appending in :mod:`tribes.replay.appending` (``act``), checking
and mending in :mod:`tribes.replay.verify`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tribes.core.engine import Step
from tribes.core.errors import LogError, UsageError
from tribes.core.game import Game
from tribes.events import files, logfile
from tribes.events.logfile import GameLog
from tribes.replay.making import (
    MAX_SEED,
    check_seats,
    file_options,
    header,
    read_option_file,
)
from tribes.replay.marks import (
    Steps,
    checkpoints,
    ends_of,
    refused_beyond,
    seal,
    shown,
    steps_of,
)
from tribes.replay.reading import (
    Opened,
    encode,
    open_log,
    opened_from,
    read_header,
    refuse_tail,
)

__all__ = [
    "MAX_SEED",
    "GameLog",
    "Opened",
    "Steps",
    "act",
    "annotate",
    "check_seats",
    "checkpoints",
    "create",
    "encode",
    "ends_of",
    "file_options",
    "header",
    "open_log",
    "opened_from",
    "read_header",
    "read_option_file",
    "refuse_tail",
    "refused_beyond",
    "seal",
    "shown",
    "steps_of",
    "to_json",
]


# --- writing ---------------------------------------------------------------------------------------


def create(
    path: Path, log: GameLog, game: Game[Any], *, force: bool = False, kept: bool = False
) -> GameLog:
    """Write a new log (either form, by the file's suffix), sealed with its commits, atomically.
    An existing file is replaced only with ``force`` (and then under its writers' lock).
    With ``kept``, the checkpoints of a log of version 3 are kept as recorded (a copy in
    another form: ``export``, ``import``), else recorded anew under the running rules."""
    ends: list[int | tuple[int, int]] = [*ends_of(log)] or ([0] if not log.events else [])
    full = seal(game, log, appended_from=ends, recorded=log if kept else None)
    write_output(path, encode(path, full), force=force, locked=True)
    return full


def check_output(path: Path, *, force: bool) -> None:
    """Refuse an existing output file before long work rather than after it (``shrink``);
    :func:`write_output` checks again when it writes."""
    if (path.exists() or path.is_symlink()) and not force:
        raise UsageError(f"{path} exists; choose another name or pass --force to replace it")


def write_output_from(path: Path, fill: Callable[[int], None], *, force: bool) -> None:
    """:func:`write_output` of what ``fill`` writes to the file descriptor it is given, as it
    comes (a baseline: never held whole)."""
    check_output(path, force=force)
    with _exists_told(path):
        files.write_atomic_from(path, fill, replace=force)


def write_output(path: Path, data: bytes, *, force: bool, locked: bool = False) -> None:
    """Write a file a command makes (a log, a picture, a page) atomically; an existing one only
    with ``force`` (with ``locked``, under the lock of the log's writers)."""
    check_output(path, force=force)
    with _exists_told(path):
        if locked and path.is_file() and not path.is_symlink():
            with files.locked(path):
                files.write_atomic(path, data, replace=True)
        else:
            files.write_atomic(path, data, replace=force)


@contextmanager
def _exists_told(path: Path) -> Iterator[None]:
    """A file made meanwhile under the output's name (the write never replaces one without
    ``force``): told as :func:`check_output` tells it."""
    try:
        yield
    except LogError as exc:
        if "exists" in exc.reason:
            raise UsageError(
                f"{path} exists; choose another name or pass --force to replace it"
            ) from None
        raise


def act(opened: Opened, moves: Sequence[str], seat: int | None = None) -> list[Step[Any]]:
    """Check every move (each ``seat``'s, when one is given), then append them all or none
    (:func:`tribes.replay.appending.act`)."""
    from tribes.replay import appending  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    if "#" in str(opened.path):  # a game of a corpus, maybe: only then load the corpus machinery
        from tribes.replay import corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

        corpus.refuse_append(opened.path)
    return appending.act(opened, moves, seat)


def annotate(path: Path, changes: Sequence[tuple[str | int, str | None]]) -> GameLog:
    """Append tag changes and notes (:func:`tribes.replay.appending.annotate`)."""
    from tribes.replay import appending  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    return appending.annotate(path, changes)


def to_json(log: GameLog) -> str:
    return logfile.to_json_text(log)
