"""``act``: check moves, then append them all or none, under the log's writers' lock.

1. Read and replay the log; parse and check every move (an illegal one leaves the file alone).
2. Take the exclusive lock (:func:`tribes.events.files.locked`) and read the file again. If
   another writer appended meanwhile, check the moves again after its events: still legal, they
   go after them; else fail with one line naming what changed.
3. ``.tribes``: write the records and the commit after the last commit, fsync (cut back on any
   failure). ``.json`` logs and those of versions 1 and 2: rewrite the whole file atomically
   (in version 3).
4. Only then return: a move that was not durably written never comes back as done.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes.core.engine import Step, play
from tribes.core.errors import (
    BadNotation,
    IllegalMove,
    LogChanged,
    LogError,
    NotYourTurn,
    UsageError,
)
from tribes.core.game import Game
from tribes.events import annotation, binary, files, logfile
from tribes.events.logfile import Annotation, GameLog
from tribes.replay import marks, reading
from tribes.replay.marks import ends_of
from tribes.replay.reading import Opened


def act(opened: Opened, moves: Sequence[str], seat: int | None = None) -> list[Step[Any]]:
    """Check every move, then append them all or none: on any error the file is untouched.
    With ``seat`` (``act --as SEAT``), every move must be that seat's: one of another seat is
    refused, naming whose turn it is (two players sharing a log by mail cannot move for each
    other)."""
    reading.refuse_tail(opened)
    history = marks.steps_of(opened.game, opened.log, path=str(opened.path))
    _refuse_other_rules(history, str(opened.path))
    seats = opened.log.header.seats
    new = _play(opened.game, history, moves, _Mover(seats, seat))
    with files.locked(opened.path) as fd:
        data = files.read_fd(fd, str(opened.path), logfile.MAX_LOG_BYTES)
        if data != opened.raw:
            opened, history, new = _after_another_writer(opened, data, moves, _Mover(seats, seat))
        _write(fd, opened, history, new)
    return new


def _refuse_other_rules(history: marks.Steps, path: str) -> None:
    """Moves go only after states the running rules give as the log recorded them: a log
    written under other rules is carried forward first (``upgrade --rules``)."""
    if history.rules is not None:
        raise LogError(
            f"{history.rules.line()}; moves are appended only under the rules the log was "
            f"written with: 'tribes upgrade --rules {path}' re-records it under the running "
            "ones first",
            path=path,
        )


@attrs.frozen
class _Mover:
    """Who makes the moves: ``seat`` of ``seats``, or anyone (None)."""

    seats: Sequence[str]
    seat: int | None = None

    def check(self, game: Game[Any], state: object, index: int, text: str) -> None:
        turn = game.to_move(state)
        if self.seat is None or turn is None or turn == self.seat:
            return  # a move after the end is refused by the rules, saying the game is over
        me, them = self.seats[self.seat], self.seats[turn]
        raise NotYourTurn(
            f"event {index}: it is {them}'s turn, not {me}'s: '{text}' would be {them}'s move "
            f"and you play as {me}"
        )


def _play(
    game: Game[Any], history: list[Step[Any]], moves: Sequence[str], mover: _Mover | None = None
) -> list[Step[Any]]:
    state = history[-1].state
    new: list[Step[Any]] = []
    for offset, text in enumerate(moves, start=1):
        index = len(history) - 1 + offset
        if mover is not None:
            mover.check(game, state, index, text)
        try:
            event = game.parse_move(state, text)
        except BadNotation as exc:
            raise BadNotation(f"event {index}: {exc.message}") from None
        step = play(game, state, event, index)
        new.append(step)
        state = step.state
    return new


def _after_another_writer(
    before: Opened, data: bytes, moves: Sequence[str], mover: _Mover
) -> tuple[Opened, marks.Steps, list[Step[Any]]]:
    """The log as another writer left it, and the moves checked again after its events."""
    path = str(before.path)
    try:
        now = reading.opened_from(before.path, data)
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
    reading.refuse_tail(now)
    history = marks.steps_of(now.game, now.log, path=path)
    _refuse_other_rules(history, path)
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
        new = _play(now.game, history, moves, mover)
    except (IllegalMove, BadNotation, NotYourTurn) as exc:
        raise LogChanged(
            f"another writer appended {span} ({told}) meanwhile, after which {exc.message}; "
            "nothing was appended",
            path=path,
        ) from None
    return now, history, new


def _write(fd: int, opened: Opened, history: list[Step[Any]], new: list[Step[Any]]) -> None:
    log = opened.log
    longer = GameLog(
        header=log.header,
        events=log.events + tuple(s.event for s in new if s.event is not None),
        annotations=log.annotations,
    )
    sealed = marks.seal(
        opened.game, longer, history + new, appended_from=ends_of(log), recorded=log
    )
    if opened.end is not None and log.version >= 3:
        suffix = binary.suffix(sealed, len(log.events), opened.end.check)
        files.append_at(fd, str(opened.path), opened.end.size, suffix)
    else:
        files.write_atomic(opened.path, reading.encode(opened.path, sealed), replace=True)


Change = tuple[str | int, str | None]
"""A tag's name or an event's index, and its new text (None: remove it)."""


def annotate(path: Path, changes: Sequence[Change]) -> GameLog:
    """Append tag changes and notes, then a commit, under the writers' lock: all or none, the
    file untouched on any error. ``.tribes``: records after the last commit (never a rewrite of
    earlier bytes); JSON and version 1 logs: the whole file rewritten atomically."""
    if not changes:
        raise UsageError("nothing to change")
    reading.open_log(path)  # a damaged log or a tail is named before the lock is taken
    with files.locked(path) as fd:
        data = files.read_fd(fd, str(path), logfile.MAX_LOG_BYTES)
        opened = reading.opened_from(path, data)
        reading.refuse_tail(opened)
        log = opened.log
        added = _annotations(log, changes)
        history = marks.steps_of(opened.game, log, path=str(path), partial=True)
        noted = attrs.evolve(log, annotations=log.annotations + added)
        sealed = marks.seal(opened.game, noted, history, appended_from=ends_of(log), recorded=log)
        if opened.end is not None and log.version >= 3:
            payloads = [annotation.record(a) for a in added]
            payloads.append(binary.commit_record(sealed.commits[-1]))
            suffix = binary.framed(payloads, opened.end.check)
            files.append_at(fd, str(path), opened.end.size, suffix)
        else:
            files.write_atomic(path, reading.encode(path, sealed), replace=True)
    return sealed


def _annotations(log: GameLog, changes: Sequence[Change]) -> tuple[Annotation, ...]:
    count = len(log.events)
    if len(log.annotations) + len(changes) > logfile.MAX_ANNOTATIONS:
        raise UsageError(
            f"a log holds at most {logfile.MAX_ANNOTATIONS} annotations (tag changes and "
            f"notes); this one has {len(log.annotations)}"
        )
    tags, notes = log.tags, log.notes
    out = []
    for key, value in changes:
        if isinstance(key, int) and not 0 <= key <= count:
            raise UsageError(
                f"there is no event {key} to note: events are 0 (the start) to {count}"
            )
        why = annotation.annotation_problem(count, key, value, count)
        if why:
            raise UsageError(why)
        if value is None and key not in (notes if isinstance(key, int) else tags):
            what = f"note on event {key}" if isinstance(key, int) else f"tag '{key}'"
            raise UsageError(f"there is no {what} to remove")
        out.append(Annotation(count, key, value))
    return tuple(out)


__all__ = ["act", "annotate"]
