"""Naming corpora and their games: ``NAME.corpus``, and ``CORPUS#K`` for game K (from 1)
wherever a log is read."""

from __future__ import annotations

from pathlib import Path

from tribes.core.errors import UsageError
from tribes.events import corpus as fmt

SUFFIX = fmt.SUFFIX


def is_corpus(path: Path) -> bool:
    return path.suffix == SUFFIX


def split_ref(path: Path) -> tuple[Path, int] | None:
    """``(corpus, k)`` for ``CORPUS#K`` (game K, from 1), else None."""
    name, sep, number = str(path).rpartition("#")
    if not sep or not name.endswith(SUFFIX) or path.exists():
        return None
    if not number.isdigit() or int(number) < 1:
        raise UsageError(f"'{path}': a game of a corpus is CORPUS#K, K a game number from 1")
    return Path(name), int(number)


def refuse_append(path: Path) -> None:
    if split_ref(path) is not None:
        raise UsageError(
            f"{path} is a game of a corpus, which never changes; 'tribes corpus get {path} "
            "-o NEW.tribes' writes it as a log to play on"
        )
