"""A game's annex: what a log holds besides its header and events — its tags and notes, and
where its appends (commits) and checkpoints were — kept in a corpus so that ``corpus get`` gives
back, byte for byte, the log that ``corpus add`` took.

Only what differs from a new log is stored: no annex for a log without annotations whose appends
ended where :func:`tribes.replay.marks.seal` puts them; commits and checkpoints as nil when they
are there. Commits are stored as places (event counts), never digests: they are bytes, computed
again. A corpus of format version 3 records each game's checkpoints themselves (in its game
record, not here); versions 1 and 2 stored their places, and replaying the game recomputed
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tribes.events import annotation, codec, logfile
from tribes.events.logfile import Annotation, GameLog


@attrs.frozen
class Marks:
    """Where a log's appends ended (``(events, annotations)``) and its checkpoints were; None:
    where a new log has them."""

    commits: tuple[tuple[int, int], ...] | None = None
    checkpoints: tuple[int, ...] | None = None


def default_checkpoints(count: int, ends: set[tuple[int, int]]) -> list[int]:
    """Where :func:`tribes.replay.marks.seal` puts checkpoints: every CHECKPOINT_EVERY events
    and where each append ended."""
    every = logfile.CHECKPOINT_EVERY
    return sorted({n for n, _ in ends} | set(range(every, count + 1, every)))


def annex_of(log: GameLog, *, places: bool = True) -> bytes:
    """The packed annex of ``log`` (empty when it needs none); ``places``: with where its
    checkpoints are (versions 1 and 2; version 3 records the checkpoints themselves)."""
    notes = [[a.at, a.key, a.value] for a in log.annotations]
    count = len(log.events)
    last = (count, len(log.annotations))
    commits = [(c.events, c.annotations) for c in log.commits]
    stored_commits = None if not commits or commits == [last] else [list(c) for c in commits]
    ends = set(commits) if commits else {last}
    spots = [c.events for c in log.checkpoints]
    default = default_checkpoints(count, ends)
    stored_checkpoints = None if not places or not log.commits or spots == default else spots
    if not notes and stored_commits is None and stored_checkpoints is None:
        return b""
    return codec.pack([notes, stored_commits, stored_checkpoints])


def shareable(annex: bytes) -> bool:
    """Whether many games may hold ``annex`` in their header part: only tags set at the start,
    with marks where a new log has them (``simulate --save DIR``'s bots tag)."""
    if not annex:
        return False
    notes, commits, checkpoints = codec.unpack_all(annex)[0]
    return (
        commits is None
        and checkpoints is None
        and all(isinstance(key, str) and at == 0 for at, key, _ in notes)
    )


def read_annex(annex: bytes, events: int) -> tuple[tuple[Annotation, ...], Marks]:
    """The annotations and marks of a game of ``events`` events from its packed annex (already
    of the right shape: :func:`tribes.events.corpus.annex_problem`); ValueError saying what is
    wrong with its values."""
    if not annex:
        return (), Marks()
    raw_notes, raw_commits, raw_checkpoints = codec.unpack_all(annex)[0]
    notes: list[Annotation] = []
    for i, (at, key, value) in enumerate(raw_notes, start=1):
        why = annotation.annotation_problem(at, key, value, events)
        if why is None and notes and at < notes[-1].at:
            why = "it comes before the annotation ahead of it"
        if why is not None:
            raise ValueError(f"annotation {i}: {why}")
        notes.append(Annotation(at, key, value))
    commits = None
    if raw_commits is not None:
        commits = tuple((n, k) for n, k in raw_commits)
        _check_commits(commits, notes, events)
    checkpoints = None
    if raw_checkpoints is not None:
        checkpoints = tuple(raw_checkpoints)
        if list(checkpoints) != sorted(set(checkpoints)) or checkpoints[-1:] > (events,):
            raise ValueError("its checkpoints are not event counts in order")
    return tuple(notes), Marks(commits, checkpoints)


def _check_commits(
    commits: tuple[tuple[int, int], ...], notes: list[Annotation], events: int
) -> None:
    if list(commits) != sorted(set(commits)) or commits[-1:] != ((events, len(notes)),):
        raise ValueError("its commits are not in order, ending after its last event and note")
    for n, k in commits:
        if any(a.at > n for a in notes[:k]) or any(a.at < n for a in notes[k:]):
            raise ValueError(f"its commit after event {n} counts {k} annotations wrongly")


def file_log(
    game: Any, log: GameLog, marks: Marks, reached: Callable[[Any], None] | None = None
) -> GameLog:
    """The log as its file held it: sealed with commits where its appends ended. A game of a
    corpus of version 3 keeps its checkpoints as recorded (its commits cover them: bytes, no
    replay); an older one's are recomputed where it had them, by replaying it, ``reached``
    given the state its last event reaches first (it raises if that is not the state the
    game's digest covers: such a game is not sealed as if intact)."""
    from tribes.replay import marks as marking  # noqa: PLC0415  start-up: the marks machinery only when a log is rebuilt

    ends: list[int | tuple[int, int]] = list(marks.commits or ())
    if log.checkpoints:
        return marking.commit(log, ends)
    walk = marking.steps_of(game, log, verify=False)
    if reached is not None:
        reached(walk[-1].state)
    return marking.seal(
        game,
        log,
        walk,
        appended_from=ends or [(len(log.events), len(log.annotations))],
        points=marks.checkpoints,
    )
