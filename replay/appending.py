"""``act``: check moves, then append them all or none, under the log's writers' lock.

1. Read and replay the log; parse and check every move (an illegal one leaves the file alone).
2. Take the exclusive lock (:func:`tribes.events.files.locked`) and read the file again. If
   another writer appended meanwhile, check the moves again after its events: still legal, they
   go after them; else fail with one line naming what changed.
3. ``.tribes``: write the records and the commit after the last commit, fsync (cut back on any
   failure). ``.json`` and version 1 logs: rewrite the whole file atomically (in version 2).
4. Only then return: a move that was not durably written never comes back as done.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.core.engine import Step, play
from tribes.core.errors import BadNotation, IllegalMove, LogChanged, LogError
from tribes.core.game import Game
from tribes.events import binary, files, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.replay.logs import Opened


def act(opened: Opened, moves: Sequence[str]) -> list[Step]:
    """Check every move, then append them all or none: on any error the file is untouched."""
    logs.refuse_tail(opened)
    history = logs.steps_of(opened.game, opened.log, path=str(opened.path))
    new = _play(opened.game, history, moves)
    with files.locked(opened.path) as fd:
        data = files.read_fd(fd, str(opened.path), logfile.MAX_LOG_BYTES)
        if data != opened.raw:
            opened, history, new = _after_another_writer(opened, data, moves)
        _write(fd, opened, history, new)
    return new


def _play(game: Game, history: list[Step], moves: Sequence[str]) -> list[Step]:
    state = history[-1].state
    new: list[Step] = []
    for offset, text in enumerate(moves, start=1):
        index = len(history) - 1 + offset
        try:
            event = game.parse_move(state, text)
        except BadNotation as exc:
            raise BadNotation(f"event {index}: {exc.message}") from None
        step = play(game, state, event, index)
        new.append(step)
        state = step.state
    return new


def _after_another_writer(
    before: Opened, data: bytes, moves: Sequence[str]
) -> tuple[Opened, list[Step], list[Step]]:
    """The log as another writer left it, and the moves checked again after its events."""
    path = str(before.path)
    try:
        now = logs.opened_from(before.path, data)
    except LogError as exc:
        raise LogChanged(
            f"changed while the moves were checked and cannot be read now ({exc.message}); "
            "nothing was appended",
            path=path,
        ) from None
    old = before.log
    if now.log.header != old.header or now.log.events[: len(old.events)] != old.events:
        raise LogChanged(
            "was replaced by another writer while the moves were checked; nothing was appended",
            path=path,
        )
    logs.refuse_tail(now)
    history = logs.steps_of(now.game, now.log, path=path)
    added = now.log.events[len(old.events) :]
    told = ", ".join(now.game.format_move(e) for e in added[:3]) + (
        ", ..." if len(added) > 3 else ""
    )
    span = (
        f"event {len(old.events) + 1}"
        if len(added) == 1
        else f"events {len(old.events) + 1} to {len(now.log.events)}"
    )
    try:
        new = _play(now.game, history, moves)
    except (IllegalMove, BadNotation) as exc:
        raise LogChanged(
            f"another writer appended {span} ({told}) meanwhile, after which {exc.message}; "
            "nothing was appended",
            path=path,
        ) from None
    return now, history, new


def _write(fd: int, opened: Opened, history: list[Step], new: list[Step]) -> None:
    log = opened.log
    longer = GameLog(
        header=log.header, events=log.events + tuple(s.event for s in new if s.event is not None)
    )
    ends = [c.events for c in log.commits]
    sealed = logs.seal(opened.game, longer, history + new, appended_from=ends)
    if opened.end is not None and log.version >= 2:
        suffix = binary.suffix(sealed, len(log.events), opened.end.check)
        files.append_at(fd, str(opened.path), opened.end.size, suffix)
    else:
        files.write_atomic(opened.path, logs.encode(opened.path, sealed), replace=True)


__all__ = ["act"]
