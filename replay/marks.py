"""The steps of a log with every mark checked (checkpoints, commits), and the marks of a log
computed: :func:`seal` gives a log its commits and checkpoints in the current format."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from tribes.core.engine import Step, steps
from tribes.core.errors import (
    BadData,
    CorruptLog,
    IllegalMove,
)
from tribes.core.game import Game
from tribes.events import codec, digest, logfile
from tribes.events.logfile import Annotation, Checkpoint, Commit, GameLog

# --- replaying and checking ------------------------------------------------------------------------


def steps_of(
    game: Game, log: GameLog, *, verify: bool = True, path: str | None = None
) -> list[Step]:
    """Every step of the log; checks each event's legality and, with ``verify``, every checkpoint
    and every commit."""
    by_count = {c.events: c for c in log.checkpoints}
    commits: dict[int, list[Commit]] = {}
    for c in log.commits:
        commits.setdefault(c.events, []).append(c)
    notes = log.annotations
    running = digest.Running(log.header) if verify and commits else None
    out: list[Step] = []
    done = 0
    try:
        for step in steps(game, log.header, log.events):
            out.append(step)
            if running is not None and step.event is not None:
                running.add(step.event)
            if verify and step.index in by_count:
                _check_checkpoint(step, by_count[step.index], path)
            if running is None:
                continue
            for commit in commits.get(step.index, ()):
                while done < min(commit.annotations, len(notes)):
                    running.add_annotation(notes[done])
                    done += 1
                _check_commit(step, running.at(), commit, path, notes)
            while done < len(notes) and notes[done].at <= step.index:
                running.add_annotation(notes[done])
                done += 1
    except IllegalMove as exc:
        if path is None:
            raise
        raise exc.within(path) from None
    except BadData as exc:
        raise CorruptLog(
            f"the header's file is refused by the game: {exc.message}", path=path
        ) from None
    if verify:
        counts = [*(c.events for c in log.checkpoints), *(c.events for c in log.commits)]
        beyond = [n for n in counts if n > len(log.events)]
        if beyond:
            raise CorruptLog(f"a checkpoint names event {beyond[0]}, beyond the last", path=path)
    return out


def _check_checkpoint(step: Step, checkpoint: Checkpoint, path: str | None) -> None:
    if digest_of(step.state) != checkpoint.digest:
        raise CorruptLog(
            "the replayed state differs from the recorded one (the log was altered, or the "
            "rules changed since it was written)",
            path=path,
            index=step.index,
            record=f"checkpoint after event {step.index}",
        )


def _check_commit(
    step: Step, so_far: bytes, commit: Commit, path: str | None, notes: Sequence[Annotation] = ()
) -> None:
    if digest.commit_digest(so_far, step.state) != commit.digest:
        covered = [
            f"annotation {i + 1} ({a.describe()})"
            for i, a in enumerate(notes[: commit.annotations])
            if a.at == step.index
        ]
        what = f", {covered[-1]} or " if covered else ", or "
        raise CorruptLog(  # a commit is a checkpoint whose digest covers the header and events
            f"the replayed state differs from the recorded one{what}the header or an event from "
            f"what was committed: the commit after event {step.index} does not match (the log "
            "was altered, or the rules changed since it was written)",
            path=path,
            index=step.index,
            record=covered[-1] if covered else f"checkpoint after event {step.index}",
        )


def digest_of(state: Any) -> bytes:
    """A checkpoint's digest of ``state`` in format version 2: the first bytes of the hash of
    its full form (:func:`~tribes.events.codec.legacy_state_hash`), as logs and corpora of that
    version were written."""
    return bytes.fromhex(codec.legacy_state_hash(state))[: logfile.DIGEST_BYTES]


def checkpoints(
    game: Game, log: GameLog, kept: Iterable[Checkpoint], states: Sequence[Step] | None = None
) -> tuple[Checkpoint, ...]:
    """The log's checkpoints: ``kept`` ones, plus every CHECKPOINT_EVERY and one at the end."""
    have = {c.events: c for c in kept}
    wanted = logfile.checkpoint_points(len(log.events), have)
    missing = [n for n in wanted if n not in have]
    if missing:
        walk = states if states is not None else steps_of(game, log, verify=False)
        for n in missing:
            have[n] = Checkpoint(n, digest_of(walk[n].state))
    return tuple(have[n] for n in sorted(have))


def seal(
    game: Game,
    log: GameLog,
    states: Sequence[Step] | None = None,
    appended_from: Iterable[int | tuple[int, int]] = (),
) -> GameLog:
    """The log in the current format, every mark recomputed: a commit at the end and at each
    earlier end of an append (``appended_from``: an event count, or an event count and the
    annotations before it), checkpoints every CHECKPOINT_EVERY elsewhere."""
    walk = states if states is not None else steps_of(game, log, verify=False)
    count = len(log.events)
    notes = log.annotations
    ends = {_position(n, notes) for n in appended_from}
    ends = {(n, k) for n, k in ends if 0 <= n <= count and k <= len(notes)}
    ends.add((count, len(notes)))
    at_count = {n for n, _ in ends}
    running = digest.Running(log.header)
    commits = []
    done = 0
    for n in range(count + 1):
        if n:
            running.add(log.events[n - 1])
        for k in sorted(k for m, k in ends if m == n):
            while done < k:
                running.add_annotation(notes[done])
                done += 1
            commits.append(Commit(n, digest.commit_digest(running.at(), walk[n].state), k))
        while done < len(notes) and notes[done].at <= n:
            running.add_annotation(notes[done])
            done += 1
    marks = [
        Checkpoint(n, digest_of(walk[n].state))
        for n in range(logfile.CHECKPOINT_EVERY, count + 1, logfile.CHECKPOINT_EVERY)
        if n not in at_count
    ]
    return attrs.evolve(log, checkpoints=tuple(marks), commits=tuple(commits))


def _position(end: int | tuple[int, int], notes: Sequence[Annotation]) -> tuple[int, int]:
    if isinstance(end, tuple):
        return end
    return end, sum(1 for a in notes if a.at <= end)


def ends_of(log: GameLog) -> list[tuple[int, int]]:
    """Where the log's appends ended: its commits' places."""
    return [(c.events, c.annotations) for c in log.commits]
