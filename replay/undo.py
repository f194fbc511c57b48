"""``tribes undo``: take back the last append(s) of one's own log.

An append is what one ``act`` wrote: its moves and the commit after them. Undo cuts the last one
(or, with ``moves``, the last K moves, whatever appends held them) and writes the log again as
it was before them, under the log's writers' lock, after keeping the file as it was beside it
(``NAME.undone``, as ``repair`` keeps ``NAME.torn``; a later undo keeps ``NAME.undone.2``, then
``.3``…, so undoing twice needs no flag and loses nothing). The log's digest changes, so a log that
others already hold would no longer match theirs: undo is for one's own games.

It refuses, leaving the file byte-identical, when a tag or a note was appended after the moves
it would cut (undo takes back moves, never what was said of them), when the cut would leave
nothing (the log's only append is its making: ``new``, ``fork``, ``import``), when there are
fewer moves than asked, and for an interrupted append (``repair`` first).
"""

from __future__ import annotations

from pathlib import Path

import attrs

from tribes.core import views
from tribes.core.errors import LogError, UsageError
from tribes.events import files, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs


@attrs.frozen
class Undone:
    """What ``undo`` removed, and where the file as it was is kept."""

    path: Path
    backup: Path
    removed: tuple[str, ...]
    """The moves removed, in notation, in their order."""
    first: int
    """The event number of the first move removed."""
    kept: int
    digest: str
    was: str
    """The log digest (hex) after and before."""

    def line(self) -> str:
        last = self.first + len(self.removed) - 1
        where = f"event {self.first}" if last == self.first else f"events {self.first} to {last}"
        shown = ", ".join(self.removed[:6]) + (", ..." if len(self.removed) > 6 else "")
        return (
            f"{self.path}: removed {views.count(len(self.removed), 'move')} ({where}: {shown}); "
            f"{views.count(self.kept, 'event')} kept; digest {self.digest[:16]} (was "
            f"{self.was[:16]}); the log as it was is kept as {self.backup}"
        )


def undo(path: Path, moves: int | None = None, *, force: bool = False) -> Undone:
    """Cut the last append of the log at ``path`` (with ``moves``: its last ``moves`` moves),
    keeping the file as it was in ``NAME.undone`` or the first free ``NAME.undone.N`` (``force``
    replaces ``NAME.undone``)."""
    from tribes.replay import corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    corpus.refuse_append(path)
    if moves is not None and moves < 1:
        raise UsageError(f"--moves {moves}: undo takes back 1 move or more")
    with files.locked(path) as fd:
        data = files.read_fd(fd, str(path), logfile.MAX_LOG_BYTES)
        opened = logs.opened_from(path, data)
        logs.refuse_tail(opened)
        log = opened.log
        if log.version < 2:
            raise UsageError(
                f"{path} is of format version 1, which records no appends to undo; "
                f"'tribes upgrade {path} -o NEW' writes it in the current version"
            )
        keep = _kept(path, log, moves)
        _refuse_annotations_after(path, log, keep)
        history = logs.steps_of(opened.game, log, path=str(path))
        cut = GameLog(header=log.header, events=log.events[:keep], annotations=log.annotations)
        ends = [(c.events, c.annotations) for c in log.commits if c.events <= keep]
        sealed = logs.seal(opened.game, cut, history[: keep + 1], appended_from=ends)
        backup = _backup_for(path, force)
        files.write_atomic(backup, data, replace=force)
        files.write_atomic(path, logs.encode(path, sealed), replace=True)
    removed = tuple(opened.game.format_move(e) for e in log.events[keep:])
    return Undone(
        path=path,
        backup=backup,
        removed=removed,
        first=keep + 1,
        kept=keep,
        digest=logfile.log_digest(sealed).hex(),
        was=logfile.log_digest(log).hex(),
    )


MAX_BACKUPS = 999
"""How many undos of one log keep their own backup before undo asks for room."""


def _backup_for(path: Path, force: bool) -> Path:
    """Where the file as it was goes: ``NAME.undone``, or when earlier undos kept that, the first
    free ``NAME.undone.N``; ``force`` replaces ``NAME.undone`` instead."""
    first = path.with_name(path.name + ".undone")
    if force:
        return first
    for n in range(1, MAX_BACKUPS + 1):
        backup = first if n == 1 else first.with_name(f"{first.name}.{n}")
        if not (backup.exists() or backup.is_symlink()):
            return backup
    raise UsageError(
        f"{first} to {first.name}.{MAX_BACKUPS} exist (kept by earlier undos); move them away or "
        f"pass --force to replace {first}"
    )


def _kept(path: Path, log: GameLog, moves: int | None) -> int:
    """How many events stay: those before the last append, or all but the last ``moves``."""
    count = len(log.events)
    if count == 0:
        raise LogError("has no moves: there is nothing to undo", path=str(path))
    if moves is not None:
        if moves > count:
            raise LogError(
                f"holds {views.count(count, 'move')}: undoing {moves} would leave nothing",
                path=str(path),
            )
        return count - moves
    before = [c.events for c in log.commits if c.events < count]
    if not before:
        raise LogError(
            f"was made with its {views.count(count, 'move')} in one append (fork or import): "
            "undoing that append would leave nothing; --moves K takes back the last K",
            path=str(path),
        )
    return max(before)


def _refuse_annotations_after(path: Path, log: GameLog, keep: int) -> None:
    """A tag or note appended after event ``keep`` was said of the moves undo would cut."""
    later = [a for a in log.annotations if a.at > keep]
    if later:
        said = later[0].describe()
        more = f" and {views.count(len(later) - 1, 'more')}" if len(later) > 1 else ""
        raise LogError(
            f"{said}{more} was appended after event {keep}, after the moves undo would take "
            "back; undo never removes tags or notes ('tribes fork' writes a new log without them)",
            path=str(path),
        )


__all__ = ["Undone", "undo"]
