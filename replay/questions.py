"""Fork, diff two logs, bisect, what-if: questions about logs, answered from their replays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from tribes.core import views
from tribes.core.blake2 import blake2b
from tribes.core.engine import Step, play
from tribes.core.errors import BadNotation, IllegalMove, TribesError
from tribes.core.events import Event
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.events import codec, logfile
from tribes.events.logfile import Annotation, GameLog
from tribes.replay.cursor import Cursor, check_point
from tribes.replay.diff import Change, diff
from tribes.replay.query import at_step, step_query


def log_digest(log: GameLog) -> str:
    """The identity of a log: BLAKE2b of its .tribes encoding (16 bytes, hex)."""
    return blake2b(logfile.encode(log), digest_size=16).hexdigest()


def fork(log: GameLog, at: int) -> GameLog:
    """Events 1..at-1, so that event ``at`` can be played differently; the header names the
    parent (its digest and ``at``)."""
    check_point(at, len(log.events), events=True, beyond=True)
    meta = {**log.header.meta, "parent": {"log": log_digest(log), "at": at}}
    head = attrs.evolve(log.header, meta=meta)
    kept = [c for c in log.checkpoints if c.events < at]
    notes = kept_annotations(log, at - 1, lambda i: i < at)
    return GameLog(
        header=head, events=log.events[: at - 1], checkpoints=tuple(kept), annotations=notes
    )


def kept_annotations(
    log: GameLog, count: int, keep: Callable[[int], bool]
) -> tuple[Annotation, ...]:
    """The tags of ``log`` and its notes on the events ``keep`` keeps, for a new log of
    ``count`` events (fork, whatif): as they are now, after its last event."""
    tags = [Annotation(count, k, v) for k, v in log.tags.items()]
    notes = [Annotation(count, i, t) for i, t in log.notes.items() if i <= count and keep(i)]
    return (*tags, *notes)


def state_diff(cursor: Cursor, a: int, b: int, viewer: Viewer = EVERYTHING) -> list[Change]:
    """What changed from the state after event ``a`` to the one after ``b``, as ``viewer``
    sees the two (default: everything)."""
    return diff(cursor.game, cursor.document(viewer, a), cursor.document(viewer, b))


@attrs.frozen
class Divergence:
    """Where two logs of one game part: the first event that differs (None when one log is a
    prefix of the other), the first state that differs, and the state diff there."""

    event: int | None
    state: int | None
    changes: list[Change]
    common: int
    header: tuple[tuple[str, object, object], ...] = ()
    """The header fields that differ (name, value in a, value in b): the logs start apart."""


def diverge(a: Cursor, b: Cursor, viewer: Viewer = EVERYTHING) -> Divergence:
    """Where two logs of one game part; the state diff there as ``viewer`` sees it."""
    if a.game.name != b.game.name:
        raise TribesError(
            f"the logs are of different games: {a.game.name} and {b.game.name}; diff compares two logs of one game"
        )
    header = tuple(
        (name, getattr(a.log.header, name), getattr(b.log.header, name))
        for name in HEADER_FIELDS
        if getattr(a.log.header, name) != getattr(b.log.header, name)
    )
    common = min(len(a), len(b))
    event = next(
        (i for i in range(1, common + 1) if a.log.events[i - 1] != b.log.events[i - 1]), None
    )
    if event is None and len(a) != len(b):
        event = common + 1
    state = None
    for i in range(common + 1):
        if codec.state_hash(a.at(i).state) != codec.state_hash(b.at(i).state):
            state = i
            break
    if state is None and event is None:
        return Divergence(None, None, [], common, header)
    where = state if state is not None else min(event or common, common)
    changes = diff(a.game, a.document(viewer, where), b.document(viewer, where))
    return Divergence(event, state, changes, common, header)


HEADER_FIELDS = ("rules_version", "seed", "seats", "options", "position")
"""What a log's start depends on (its metadata does not change a state)."""


def bisect(cursor: Cursor, expression: str) -> int | None:
    """The first event after which ``expression`` holds (0: it holds at the start); it may
    name what the event did too (``len(VillageFounded) >= 2``, :func:`query.at_step`)."""
    query = step_query(cursor.game, cursor.log.header, expression)
    for index in range(len(cursor) + 1):
        if query.holds(_step_read(cursor, index)):
            return index
    return None


def _step_read(cursor: Cursor, index: int) -> Mapping[str, Any]:
    step = cursor.at(index)
    return at_step(cursor.game, cursor.log.header, index, step.state, step.event, step.effects)


def never_present(cursor: Cursor, expression: str) -> list[str]:
    """The paths of ``expression`` that are in no state of the log (read as null everywhere):
    likely typos, such as ``track.pink`` or an index beyond every list's end."""
    query = step_query(cursor.game, cursor.log.header, expression)
    absent = {text for text, _ in query.paths}
    for index in range(len(cursor) + 1):
        absent &= query.missing(_step_read(cursor, index))
        if not absent:
            break
    return sorted(absent)


@attrs.frozen
class WhatIf:
    """Event ``at`` replaced: the new log up to its last legal event, the first later event
    that became illegal (with the reason), and the state diff at the end of the legal part."""

    log: GameLog
    illegal_at: int | None
    reason: str | None
    changes: list[Change]
    steps: Sequence[Step[Any]]


def whatif(cursor: Cursor, at: int, move: str) -> WhatIf:
    game: Game[Any] = cursor.game
    check_point(at, len(cursor), events=True)
    before = cursor.at(at - 1).state
    try:
        event = game.parse_move(before, move)
    except BadNotation as exc:
        raise exc.within(f"event {at}") from None
    step = play(game, before, event, at)  # an illegal replacement is an error, not a result
    new_steps = [step]
    events: list[Event] = [*cursor.log.events[: at - 1], event]
    illegal_at = reason = None
    for index in range(at + 1, len(cursor) + 1):
        later = cursor.log.events[index - 1]
        try:
            new_steps.append(play(game, new_steps[-1].state, later, index))
        except IllegalMove as exc:
            illegal_at, reason = index, exc.reason + (f" ({exc.rule})" if exc.rule else "")
            break
        events.append(later)
    end = at - 1 + len(new_steps)
    parent = {"log": log_digest(cursor.log), "at": at, "replaced": move}
    head = attrs.evolve(cursor.log.header, meta={**cursor.log.header.meta, "parent": parent})
    notes = kept_annotations(cursor.log, len(events), lambda i: i != at)
    new_log = GameLog(header=head, events=tuple(events), annotations=notes)
    original = cursor.document(EVERYTHING, end)
    changed = views.step_document(game, new_log.header, end, new_steps[-1].state, EVERYTHING)
    return WhatIf(new_log, illegal_at, reason, diff(game, original, changed), new_steps)
