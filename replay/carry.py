"""``tribes upgrade --rules``: carry intact logs forward to the running rules, on purpose.

For each log (a file, the logs of a folder): it must be intact (its commits, bytes only) and
every event legal under the running rules. Its checkpoints are then compared with the states
the running rules give; where they differ, what changes is said (the first differing
checkpoint, the parts of the state, the outcome recorded and the outcome now), and the log is
re-recorded: every checkpoint anew under the running rules (their version in each, so the log
records which rules version it was re-sealed under), its events, annotations and appends as
they were (its log digest unchanged). The file as it was is kept beside it, ``NAME.rules`` (or
the first free ``NAME.rules.N``), as ``repair`` and ``undo`` keep theirs. A log with an event
the running rules refuse is left as it is and named. ``dry_run`` says all this and writes
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes.core import views
from tribes.core.engine import Step
from tribes.core.errors import LogChanged, UsageError
from tribes.core.game import Game
from tribes.events import files, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs, marks, reading
from tribes.replay.consistency import MoveRefused, RulesDiffer

MAX_BACKUPS = 999

Outcome = tuple[tuple[int, ...], tuple[int, ...]]


@attrs.frozen
class Carried:
    """What ``upgrade --rules`` did (or, with ``dry_run``, would do) to one log."""

    path: Path
    game: str
    running: int
    differ: RulesDiffer | None = None
    refused: MoveRefused | None = None
    before: Outcome | None = None
    """The outcome its last checkpoint recorded (None: not over, or not recorded)."""
    after: Outcome | None = None
    """The outcome under the running rules (None: not over)."""
    backup: Path | None = None
    written: bool = False
    format: int = logfile.FORMAT_VERSION
    seats: tuple[str, ...] = ()

    def line(self) -> str:
        if self.refused is not None:
            return f"{self.path}: left as it is: {self.refusal()}"
        what = f"{self.game} rules version {self.running}"
        if self.differ is None and self.format >= logfile.FORMAT_VERSION:
            return f"{self.path}: consistent with {what}: nothing to re-record"
        change = self.change()
        if not self.written:
            return f"{self.path}: {change}; would be re-recorded under {what} (dry run)"
        return (
            f"{self.path}: {change}; re-recorded under {what}; the log as it was is kept as "
            f"{self.backup}"
        )

    def refusal(self) -> str:
        """The move the running rules refuse, in words."""
        assert self.refused is not None
        rule = f" ({self.refused.rule})" if self.refused.rule else ""
        return (
            f"the running rules (version {self.running}) refuse event {self.refused.event} "
            f"('{self.refused.move}'): {self.refused.reason}{rule}; written under version "
            f"{self.refused.written_under}"
        )

    def change(self) -> str:
        """What re-recording changes, in words: the first differing event, the parts, the
        outcome before and after (or only the format)."""
        what = f"{self.game} rules version {self.running}"
        if self.differ is None:
            return f"consistent with {what}; format version {self.format} -> 3"
        d = self.differ
        parts = f"differ: {', '.join(d.parts)}" if d.parts else "parts not recorded"
        return (
            f"rules differ after event {d.event} ({parts}); outcome "
            f"{self._outcome(self.before, 'not recorded')} -> "
            f"{self._outcome(self.after, 'not over')}"
        )

    def _outcome(self, outcome: Outcome | None, missing: str) -> str:
        if outcome is None:
            return missing
        scores, winners = outcome
        names = self.seats or tuple(f"p{i + 1}" for i in range(len(scores)))
        shown = ", ".join(f"{names[i]} {s}" for i, s in enumerate(scores) if i < len(names))
        won = " and ".join(names[w] for w in winners if 0 <= w < len(names)) or "nobody"
        return f"{shown} ({won} {'wins' if len(winners) == 1 else 'win'})"


def carry(paths: Sequence[Path], *, dry_run: bool = False) -> list[Carried]:
    """``upgrade --rules`` of every log of ``paths`` (a folder: its logs), in order; a damaged
    log raises (nothing of it is written). Corpora:
    :func:`tribes.replay.corpus.carrying.carry_corpus`."""
    from tribes.replay import batch, corpus  # noqa: PLC0415  start-up: opening a log loads no corpus or append machinery

    out = []
    for path in batch.expand(list(paths)):
        ref = corpus.split_ref(path)
        if ref is not None:
            raise UsageError(
                f"{path} is a game of a corpus; upgrade --rules carries the whole corpus "
                f"forward: name '{ref[0]}'"
            )
        if corpus.is_corpus(path):
            raise UsageError(f"{path}: a corpus is carried forward by carry_corpus")
        out.append(carry_log(path, dry_run=dry_run))
    return out


def carry_log(path: Path, *, dry_run: bool = False) -> Carried:
    """Carry one log forward (see the module)."""
    opened = logs.open_log(path)
    reading.refuse_tail(opened)
    game, log = opened.game, opened.log
    steps = _steps(game, log, str(path))
    base = Carried(path, game.name, game.rules_version, format=log.version, seats=log.header.seats)
    if isinstance(steps.rules, MoveRefused):
        return attrs.evolve(base, refused=steps.rules)
    after = _outcome(game, steps[-1])
    recorded = [c.outcome for c in log.checkpoints if c.events == len(log.events)]
    before = recorded[-1] if recorded else None
    differ = steps.rules if isinstance(steps.rules, RulesDiffer) else None
    carried = attrs.evolve(base, differ=differ, before=before, after=after)
    if differ is None and log.version >= logfile.FORMAT_VERSION:
        return carried
    if dry_run:
        return carried
    fresh = attrs.evolve(log, checkpoints=())
    new = marks.seal(game, fresh, steps, appended_from=marks.ends_of(log))
    backup = _rewrite(opened, new)
    return attrs.evolve(carried, backup=backup, written=True)


def _steps(game: Game[Any], log: GameLog, path: str) -> marks.Steps:
    """The log's steps under the running rules with its answer; a log of version 1 (no commits,
    so nothing to tell an alteration by) has its checkpoints compared here, as parts cannot be."""
    if log.version >= 2:
        return marks.steps_of(game, log, path=path, partial=True)
    steps = marks.steps_of(game, log, verify=False, path=path)
    for mark in log.checkpoints:
        if (
            mark.events < len(steps)
            and marks.recorded_digest(steps[mark.events].state, mark) != mark.digest
        ):
            steps.rules = RulesDiffer(
                game=game.name,
                event=mark.events,
                parts=(),
                agree=(),
                written_under=log.header.rules_version,
                running=game.rules_version,
            )
            break
    return steps


def _outcome(game: Game[Any], step: Step[Any]) -> Outcome | None:
    if not game.is_over(step.state):
        return None
    result = game.outcome(step.state)
    return tuple(result.scores), tuple(result.winners)


def _rewrite(opened: reading.Opened, new: GameLog) -> Path:
    """Write ``new`` over the log's file under its writers' lock, the file as it was kept
    first; refused if another writer changed it meanwhile."""
    path = opened.path
    with files.locked(path) as fd:
        data = files.read_fd(fd, str(path), logfile.MAX_LOG_BYTES)
        if data != opened.raw:
            raise LogChanged(
                "was changed by another writer meanwhile; nothing was re-recorded", path=str(path)
            )
        backup = backup_for(path)
        files.write_atomic(backup, data, replace=False)
        files.write_atomic(path, reading.encode(path, new), replace=True)
    return backup


def backup_for(path: Path) -> Path:
    """The first free name of ``NAME.rules``, ``NAME.rules.2``, …: where the file as it was is
    kept."""
    first = path.with_name(path.name + ".rules")
    for n in range(1, MAX_BACKUPS + 1):
        backup = first if n == 1 else first.with_name(f"{first.name}.{n}")
        if not (backup.exists() or backup.is_symlink()):
            return backup
    raise UsageError(f"{first} to {first.name}.{MAX_BACKUPS} exist; move them away first")


def summary(everything: Sequence[object]) -> str:
    """The last line: how many logs were re-recorded, consistent, left as they are (corpora
    say so on their own lines)."""
    carried = [c for c in everything if isinstance(c, Carried)]
    done = sum(1 for c in carried if c.written)
    would = sum(1 for c in carried if not c.written and c.refused is None and _changes(c))
    left = sum(1 for c in carried if c.refused is not None)
    same = len(carried) - done - would - left
    parts = [f"{views.count(done, 'log')} re-recorded"]
    if would:
        parts = [f"{views.count(would, 'log')} to re-record (dry run)"]
    parts += [f"{same} consistent", f"{left} left as they are (a move refused)"]
    return ", ".join(parts)


def _changes(c: Carried) -> bool:
    return c.differ is not None or c.format < logfile.FORMAT_VERSION


__all__ = ["Carried", "carry", "carry_log", "summary"]
