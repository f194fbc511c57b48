"""Naming corpora and their games: ``NAME.corpus``, and ``CORPUS#K`` for game K (from 1)
wherever a log is read. A file of another name that begins as a corpus does (``NAME.corpus.rules``,
the corpus as it was that ``upgrade --rules`` keeps) is a corpus too, read as one."""

from __future__ import annotations

from pathlib import Path

from tribes.core import digits
from tribes.core.errors import UsageError
from tribes.events import corpus as fmt

SUFFIX = fmt.SUFFIX


HEAD_BYTES = 128
"""What is read of a file of another name to tell whether it is a corpus: its mark and header."""


def is_corpus(path: Path) -> bool:
    return path.suffix == SUFFIX or _marked(path)


def split_ref(path: Path) -> tuple[Path, int] | None:
    """``(corpus, k)`` for ``CORPUS#K`` (game K, from 1), else None."""
    name, sep, number = str(path).rpartition("#")
    if not sep or not (name.endswith(SUFFIX) or _marked(Path(name))) or _exists(path):
        return None
    k = digits.natural(number)
    if k is None or k < 1:
        shown = number if len(number) <= 24 else f"{number[:20]}... ({len(number)} characters)"
        raise UsageError(
            f"'{name}#{shown}': a game of a corpus is CORPUS#K, K a game number from 1 "
            "in the digits 0-9"
        )
    return Path(name), k


def _exists(path: Path) -> bool:
    """Whether a file of that very name is there (a name too long for any file is not)."""
    try:
        return path.exists()
    except OSError:
        return False


def _marked(path: Path) -> bool:
    """Whether a regular file of that name (never a FIFO or a device) begins as a corpus does."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as read:
            return fmt.starts_a_corpus(read.read(HEAD_BYTES))
    except OSError:
        return False


def refuse_append(path: Path) -> None:
    if split_ref(path) is not None:
        raise UsageError(
            f"{path} is a game of a corpus, which never changes; 'tribes corpus get {path} "
            "-o NEW.tribes' writes it as a log to play on"
        )
