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
from tribes.events.logfile import Checkpoint, Commit, GameLog

# --- replaying and checking ------------------------------------------------------------------------


def steps_of(
    game: Game, log: GameLog, *, verify: bool = True, path: str | None = None
) -> list[Step]:
    """Every step of the log; checks each event's legality and, with ``verify``, every checkpoint
    and every commit."""
    by_count = {c.events: c for c in log.checkpoints}
    commits = {c.events: c for c in log.commits}
    running = digest.Running(log.header) if verify and commits else None
    out: list[Step] = []
    try:
        for step in steps(game, log.header, log.events):
            out.append(step)
            if running is not None and step.event is not None:
                running.add(step.event)
            if verify and step.index in by_count:
                _check_checkpoint(step, by_count[step.index], path)
            if running is not None and step.index in commits:
                _check_commit(step, running.at(), commits[step.index], path)
    except IllegalMove as exc:
        if path is None:
            raise
        raise exc.within(path) from None
    except BadData as exc:
        raise CorruptLog(
            f"the header's file is refused by the game: {exc.message}", path=path
        ) from None
    if verify:
        beyond = [c.events for c in (*log.checkpoints, *log.commits) if c.events > len(log.events)]
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


def _check_commit(step: Step, so_far: bytes, commit: Commit, path: str | None) -> None:
    if digest.commit_digest(so_far, step.state) != commit.digest:
        raise CorruptLog(  # a commit is a checkpoint whose digest covers the header and events
            "the replayed state differs from the recorded one, or the header or an event from "
            f"what was committed: the commit after event {step.index} does not match (the log "
            "was altered, or the rules changed since it was written)",
            path=path,
            index=step.index,
            record=f"checkpoint after event {step.index}",
        )


def digest_of(state: Any) -> bytes:
    return bytes.fromhex(codec.state_hash(state))[: logfile.DIGEST_BYTES]


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
    appended_from: Iterable[int] = (),
) -> GameLog:
    """The log in the current format, every mark recomputed: a commit at the end and at each
    earlier end of an append (``appended_from``), checkpoints every CHECKPOINT_EVERY elsewhere."""
    walk = states if states is not None else steps_of(game, log, verify=False)
    count = len(log.events)
    ends = {n for n in appended_from if 0 <= n <= count} | {count}
    running = digest.Running(log.header)
    commits = []
    for n in range(count + 1):
        if n:
            running.add(log.events[n - 1])
        if n in ends:
            commits.append(Commit(n, digest.commit_digest(running.at(), walk[n].state)))
    marks = [
        Checkpoint(n, digest_of(walk[n].state))
        for n in range(logfile.CHECKPOINT_EVERY, count + 1, logfile.CHECKPOINT_EVERY)
        if n not in ends
    ]
    return attrs.evolve(log, checkpoints=tuple(marks), commits=tuple(commits))
