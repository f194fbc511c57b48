"""The steps of a log with every mark checked (commits: is it intact? checkpoints: do the
running rules give its states?), and the marks of a log computed: :func:`seal` gives a log its
commits and checkpoints in the current format (version 3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tribes.core.engine import Step, steps
from tribes.core.errors import (
    BadData,
    CorruptLog,
    GameOver,
    IllegalMove,
    UsageError,
)
from tribes.core.game import Game
from tribes.events import codec, digest, logfile
from tribes.events.logfile import Annotation, Checkpoint, Commit, GameLog
from tribes.replay.consistency import (
    Answer,
    MoveRefused,
    RulesDiffer,
    RulesRefuse,
    checkpoint_of,
    parts_compared,
    state_digest,
    warning,
)

# --- replaying and checking ------------------------------------------------------------------------


class Steps(list[Step[Any]]):
    """Every step of a log, and ``rules``: what the running rules say of it once it is found
    intact (:mod:`tribes.replay.consistency`; None: consistent, or not checked)."""

    rules: Answer | None = None


def steps_of(
    game: Game[Any],
    log: GameLog,
    *,
    verify: bool = True,
    path: str | None = None,
    partial: bool = False,
) -> Steps:
    """Every step of the log; checks each event's legality and, with ``verify``, every commit
    and checkpoint.

    A log of format version 3 is first found intact or not from its bytes alone
    (:func:`intact`); its checkpoints then say whether the running rules give the states it
    recorded, ``rules`` the answer (:class:`RulesDiffer`). An event of an intact log that the
    running rules refuse raises :class:`RulesRefuse`, or with ``partial`` (for the commands
    that display a game) ends the steps before it, ``rules`` saying so (:class:`MoveRefused`).
    In versions 1 and 2 a checkpoint or commit that differs is a CorruptLog: there, an altered
    log and one written under other rules cannot be told apart."""
    v3 = verify and (log.version >= 3 or recorded(log))
    if v3:
        intact(log, path)
    by_count = {c.events: c for c in log.checkpoints}
    commits: dict[int, list[Commit]] = {}
    if not v3:
        for c in log.commits:
            commits.setdefault(c.events, []).append(c)
    notes = log.annotations
    running = digest.Running(log.header) if verify and commits else None
    out = Steps()
    done = 0
    agreed: int | None = None
    try:
        for step in steps(game, log.header, log.events):
            out.append(step)
            if v3:
                mark = by_count.get(step.index)
                if mark is not None and out.rules is None:
                    if recorded_digest(step.state, mark) == mark.digest:
                        agreed = step.index
                    else:
                        out.rules = _differ(game, log, mark, step, agreed)
                continue
            if running is not None and step.event is not None:
                running.add(step.event)
            if verify and step.index in by_count:
                _check_checkpoint(step, by_count[step.index], path, log.version)
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
        if v3:
            refused = MoveRefused(
                game=game.name,
                event=exc.index or len(out),
                move=exc.move or "?",
                reason=exc.reason,
                rule=exc.rule,
                written_under=written_under(log),
                running=game.rules_version,
                ended=isinstance(exc, GameOver),
            )
            if not partial:
                raise RulesRefuse(refused, path) from None
            out.rules = refused
            return out
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


def shown(
    game: Game[Any],
    log: GameLog,
    path: str,
    warn: Callable[[str], None] | None = None,
    *,
    partial: bool = True,
    index: int | None = None,
) -> Steps:
    """The steps a command displays: every check made, the game shown under the running
    rules up to an event they refuse (unless not ``partial``: then that is an error), and the
    answer for an intact log that they replay otherwise given to ``warn`` as one line
    (:func:`tribes.replay.consistency.warning`). ``index``, a state asked for, is checked
    first: one past that event is an error, said alone."""
    out = steps_of(game, log, path=path, partial=partial)
    if index is not None:
        refused_beyond(out, index, path)
    line = warning(out.rules, path)
    if line is not None and warn is not None:
        warn(line)
    return out


def refused_beyond(out: Steps, index: int, path: str) -> None:
    """Refuse ``--at index`` past the event the running rules refuse (in one line)."""
    if isinstance(out.rules, MoveRefused) and index >= out.rules.event:
        raise UsageError(
            f"there is no state after event {index} under the running rules: they refuse "
            f"event {out.rules.event} of {path} ('{out.rules.move}'); --at is at most "
            f"{out.rules.event - 1}"
        )


def _differ(
    game: Game[Any], log: GameLog, mark: Checkpoint, step: Step[Any], agreed: int | None
) -> RulesDiffer:
    differ, agree = parts_compared(game, mark, step.state)
    return RulesDiffer(
        game=game.name,
        event=step.index,
        parts=differ,
        agree=agree,
        written_under=mark.rules or log.header.rules_version,
        running=game.rules_version,
        agreed=agreed,
    )


def recorded(log: GameLog) -> bool:
    """Whether ``log`` is a game of a corpus of version 3 as read (its checkpoints as recorded,
    each naming its rules version; no commits: the corpus's digest found it intact)."""
    return not log.commits and bool(log.checkpoints) and all(c.rules for c in log.checkpoints)


def written_under(log: GameLog) -> int:
    """The rules version a log's checkpoints were recorded under: its last checkpoint's (a log
    carried forward by ``upgrade --rules`` says so there), else its header's."""
    recorded = [c.rules for c in log.checkpoints if c.rules]
    return recorded[-1] if recorded else log.header.rules_version


def intact(log: GameLog, path: str | None = None) -> None:
    """Raise CorruptLog unless every commit of a log of format version 3 matches what it
    covers: the header, the events, the annotations and the checkpoints before it, as
    recorded. Bytes only: the answer never depends on the rules (or the code) reading it."""
    running = digest.Running(log.header)
    marks = {c.events: c for c in log.checkpoints}
    commits: dict[int, list[Commit]] = {}
    for c in log.commits:
        commits.setdefault(c.events, []).append(c)
    notes = log.annotations
    done = 0
    for n in range(len(log.events) + 1):
        if n:
            running.add(log.events[n - 1])
        if n in marks:
            running.add_checkpoint(marks[n])
        for commit in commits.get(n, ()):
            while done < min(commit.annotations, len(notes)):
                running.add_annotation(notes[done])
                done += 1
            if digest.commit_digest(running.at(), running.marks()) != commit.digest:
                covered = [
                    f"annotation {i + 1} ({a.describe()})"
                    for i, a in enumerate(notes[: commit.annotations])
                    if a.at == n
                ]
                raise CorruptLog(
                    f"the commit after event {n} does not match the header, events, "
                    "annotations and checkpoints before it: the log was altered or damaged",
                    path=path,
                    index=n,
                    record=covered[-1] if covered else f"the commit after event {n}",
                )
        while done < len(notes) and notes[done].at <= n:
            running.add_annotation(notes[done])
            done += 1


_OTHER_RULES = (
    "the log was altered, or the rules changed since it was written: a log of format "
    "version {v} cannot tell which"
)


def _check_checkpoint(
    step: Step[Any], checkpoint: Checkpoint, path: str | None, version: int
) -> None:
    if recorded_digest(step.state, checkpoint) != checkpoint.digest:
        raise CorruptLog(
            f"the replayed state differs from the recorded one ({_OTHER_RULES.format(v=version)})",
            path=path,
            index=step.index,
            record=f"checkpoint after event {step.index}",
        )


def _check_commit(
    step: Step[Any],
    so_far: bytes,
    commit: Commit,
    path: str | None,
    notes: Sequence[Annotation] = (),
) -> None:
    if digest.commit_digest_v2(so_far, step.state) != commit.digest:
        covered = [
            f"annotation {i + 1} ({a.describe()})"
            for i, a in enumerate(notes[: commit.annotations])
            if a.at == step.index
        ]
        what = f", {covered[-1]} or " if covered else ", or "
        raise CorruptLog(  # a commit is a checkpoint whose digest covers the header and events
            f"the replayed state differs from the recorded one{what}the header or an event from "
            f"what was committed: the commit after event {step.index} does not match "
            f"({_OTHER_RULES.format(v=2)})",
            path=path,
            index=step.index,
            record=covered[-1] if covered else f"checkpoint after event {step.index}",
        )


def recorded_digest(state: Any, checkpoint: Checkpoint) -> bytes:
    """The digest of ``state`` as ``checkpoint`` records one: a checkpoint of version 3 (it
    names the rules version it was recorded under) the state's identity
    (:func:`~tribes.replay.consistency.state_digest`), one of an older version the hash of the
    state's full form (:func:`digest_of`); a log in memory (fork, whatif) may hold either."""
    return state_digest(state) if checkpoint.rules else digest_of(state)


def digest_of(state: Any) -> bytes:
    """A checkpoint's digest of ``state`` in format version 2: the first bytes of the hash of
    its full form (:func:`~tribes.events.codec.legacy_state_hash`), as logs and corpora of that
    version were written."""
    return bytes.fromhex(codec.legacy_state_hash(state))[: logfile.DIGEST_BYTES]


def checkpoints(
    game: Game[Any],
    log: GameLog,
    kept: Iterable[Checkpoint],
    states: Sequence[Step[Any]] | None = None,
) -> tuple[Checkpoint, ...]:
    """The log's checkpoints (as version 1 has them): ``kept`` ones, plus every
    CHECKPOINT_EVERY and one at the end."""
    have = {c.events: c for c in kept}
    wanted = logfile.checkpoint_points(len(log.events), have)
    missing = [n for n in wanted if n not in have]
    if missing:
        walk = states if states is not None else steps_of(game, log, verify=False)
        for n in missing:
            have[n] = Checkpoint(n, digest_of(walk[n].state))
    return tuple(have[n] for n in sorted(have))


def seal(
    game: Game[Any],
    log: GameLog,
    states: Sequence[Step[Any]] | None = None,
    appended_from: Iterable[int | tuple[int, int]] = (),
    recorded: GameLog | None = None,
    points: Iterable[int] | None = None,
) -> GameLog:
    """The log in the current format, its marks computed: a checkpoint and a commit at the end
    and at each earlier end of an append (``appended_from``: an event count, or an event count
    and the annotations before it), checkpoints every CHECKPOINT_EVERY too. The checkpoints of
    ``recorded`` (the log of version 3 being appended to) are kept as they are: an append adds
    records after them and never rewrites them. ``points``, if given, are where the checkpoints
    go instead (a log given back by a corpus, as its file had them)."""
    count = len(log.events)
    notes = log.annotations
    ends = {_position(n, notes) for n in appended_from}
    ends = {(n, k) for n, k in ends if 0 <= n <= count and k <= len(notes)}
    ends.add((count, len(notes)))
    kept: dict[int, Checkpoint] = {}
    start = -1
    if recorded is not None and recorded.version >= 3:
        kept = {c.events: c for c in recorded.checkpoints}
        start = len(recorded.events)
    places = {n for n, _ in ends}
    places.update(range(logfile.CHECKPOINT_EVERY, count + 1, logfile.CHECKPOINT_EVERY))
    if points is not None:  # and at every commit, as version 3 has them
        places = set(points) | {n for n, _ in ends}
    places = {n for n in places if n > start}
    walk: Sequence[Step[Any]] | None = states
    for n in sorted(places - set(kept)):
        if walk is None:
            walk = steps_of(game, log, verify=False)
        kept[n] = checkpoint_of(game, n, walk[n].state)
    marks = tuple(kept[n] for n in sorted(kept))
    marked = attrs.evolve(log, checkpoints=marks, commits=(), format=logfile.FORMAT_VERSION)
    return attrs.evolve(marked, commits=_commits(marked, ends))


def commit(log: GameLog, ends: Iterable[int | tuple[int, int]]) -> GameLog:
    """``log`` with its checkpoints as recorded and commits (format version 3) where its
    appends ended (``ends``, as :func:`seal` takes them, the end always): bytes only, nothing
    replayed (a game of a corpus of version 3 given back as a log)."""
    notes = log.annotations
    places = {_position(n, notes) for n in ends} | {(len(log.events), len(notes))}
    marked = attrs.evolve(log, format=logfile.FORMAT_VERSION)
    return attrs.evolve(marked, commits=_commits(marked, places))


def _commits(log: GameLog, ends: set[tuple[int, int]]) -> tuple[Commit, ...]:
    """The commits of a log of version 3 at ``ends``: bytes only (:func:`intact`)."""
    running = digest.Running(log.header)
    marks = {c.events: c for c in log.checkpoints}
    notes = log.annotations
    out = []
    done = 0
    for n in range(len(log.events) + 1):
        if n:
            running.add(log.events[n - 1])
        if n in marks:
            running.add_checkpoint(marks[n])
        for k in sorted(k for m, k in ends if m == n):
            while done < k:
                running.add_annotation(notes[done])
                done += 1
            out.append(Commit(n, digest.commit_digest(running.at(), running.marks()), k))
        while done < len(notes) and notes[done].at <= n:
            running.add_annotation(notes[done])
            done += 1
    return tuple(out)


def _position(end: int | tuple[int, int], notes: Sequence[Annotation]) -> tuple[int, int]:
    if isinstance(end, tuple):
        return end
    return end, sum(1 for a in notes if a.at <= end)


def ends_of(log: GameLog) -> list[tuple[int, int]]:
    """Where the log's appends ended: its commits' places."""
    return [(c.events, c.annotations) for c in log.commits]
