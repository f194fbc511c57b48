"""``tribes regress``: each game as it replays now against its baseline record
(:mod:`tribes.replay.baseline`): unchanged, or the first event whose state differs, the outcomes
before and after and the first event now illegal; and the summary of them all."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes.replay import sweep
from tribes.replay.baseline import WIDTH, Baseline, Record, Recorder
from tribes.replay.parallel import Where

UNCHANGED = "unchanged"
CHANGED = "changed"
NEW = "new"
OTHER_LOG = "other-log"


@attrs.frozen
class Comparison:
    """One game now against its record: ``status`` one of UNCHANGED, CHANGED, NEW (not in the
    baseline), OTHER_LOG (the baseline recorded another log under that name)."""

    name: str
    status: str
    now: Record
    before: Record | None = None
    first: int | None = None
    """The first step whose state differs (0: the start)."""
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.status != UNCHANGED

    def line(self) -> str:
        notes = "".join(f"; {n}" for n in self.notes)
        if self.status == UNCHANGED:
            return f"ok       {self.name}: unchanged{notes}"
        if self.status == NEW:
            return f"NEW      {self.name}: not in the baseline{notes}"
        if self.status == OTHER_LOG:
            return (
                f"OTHER    {self.name}: not in the baseline, which recorded another log under "
                f"this name (its header or events differ){notes}"
            )
        assert self.before is not None
        return (
            f"CHANGED  {self.name}: {self._where()}; outcome before: {_outcome(self.before, self.now.seats)}"
            f", now: {_outcome(self.now, self.now.seats)}{self._illegal()}{notes}"
        )

    def _where(self) -> str:
        if self.first == 0:
            return "the start differs (the setup changed)"
        return f"first difference at event {self.first} ({self.move})"

    @property
    def move(self) -> str | None:
        moves = self.now.moves
        if self.first is None or not 0 < self.first <= len(moves):
            return None
        return moves[self.first - 1]

    def _illegal(self) -> str:
        if self.now.illegal is None:
            return ""
        index, reason = self.now.illegal
        return f"; event {index} ({self.now.moves[index - 1]}) is now illegal: {reason}"

    def document(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, "status": self.status}
        if self.status == CHANGED and self.before is not None:
            out["first_difference"] = self.first
            out["move"] = self.move
            out["before"] = _outcome_data(self.before, self.now.seats)
            out["now"] = _outcome_data(self.now, self.now.seats)
            illegal = self.now.illegal
            out["illegal"] = (
                None
                if illegal is None
                else {
                    "event": illegal[0],
                    "move": self.now.moves[illegal[0] - 1],
                    "reason": illegal[1],
                }
            )
        out["notes"] = list(self.notes)
        return out


def compare(baseline: Baseline, now: Record) -> Comparison:
    """``now`` (a game as it replays today, with its moves) against its record in
    ``baseline``: the record of its log (by identity); none, when the baseline has another log
    under its name (OTHER_LOG) or nothing (NEW)."""
    before = baseline.by_id.get(now.log_id)
    notes = _versions(before, now)
    if before is None:
        other = now.name in baseline.by_name
        return Comparison(now.name, OTHER_LOG if other else NEW, now, notes=notes)
    common = min(before.steps, now.steps)
    first = next(
        (
            i
            for i in range(common)
            if before.digests[i * WIDTH : (i + 1) * WIDTH]
            != now.digests[i * WIDTH : (i + 1) * WIDTH]
        ),
        None,
    )
    if first is None and before.steps != now.steps:
        first = common  # the replay stopped early: its first missing state is the difference
    outcome_moved = (before.over, before.winners, before.scores) != (
        now.over,
        now.winners,
        now.scores,
    )
    if first is None and not outcome_moved and now.illegal is None:
        return Comparison(now.name, UNCHANGED, now, before, notes=notes)
    return Comparison(now.name, CHANGED, now, before, first, notes)


def _versions(before: Record | None, now: Record) -> tuple[str, ...]:
    notes = []
    if now.header_rules != now.rules_version:
        notes.append(
            f"its header names rules version {now.header_rules}, this tribes plays "
            f"{now.game} rules version {now.rules_version}"
        )
    if before is not None and before.rules_version != now.rules_version:
        notes.append(
            f"recorded with {before.game} rules version {before.rules_version}, "
            f"now version {now.rules_version}"
        )
    return tuple(notes)


def _outcome(record: Record, seats: Sequence[str]) -> str:
    if record.illegal is not None:
        return "none (the replay stops at an illegal event)"
    scores = ", ".join(f"{_seat(seats, i)} {s}" for i, s in enumerate(record.scores))
    if not record.over:
        return f"{scores} (not over)"
    winners = " and ".join(_seat(seats, i) for i in record.winners) or "nobody"
    return f"{scores}; {winners} {'wins' if len(record.winners) == 1 else 'win'}"


def _outcome_data(record: Record, seats: Sequence[str]) -> dict[str, Any]:
    return {
        "over": record.over,
        "scores": {_seat(seats, i): s for i, s in enumerate(record.scores)},
        "winners": [_seat(seats, i) for i in record.winners],
    }


def _seat(seats: Sequence[str], i: int) -> str:
    return seats[i] if i < len(seats) else f"seat {i + 1}"


@attrs.frozen
class Summary:
    games: int
    changed: int
    new: int
    other: int
    firsts: tuple[int, ...]
    """The first differing events of the changed games, each once, in order."""
    missing: int
    """Games of the baseline that were not among the inputs."""

    def line(self) -> str:
        shown = ", ".join(map(str, self.firsts[:10])) + (", …" if len(self.firsts) > 10 else "")
        games = f"{self.games:,} game{'' if self.games == 1 else 's'}"
        text = f"{self.changed:,} of {games} changed"
        if self.firsts:
            text += f"; first differences at event{'' if len(self.firsts) == 1 else 's'} {shown}"
        if self.new:
            text += f"; {self.new:,} not in the baseline"
        if self.other:
            text += f"; {self.other:,} under a name the baseline gave another log"
        if self.missing:
            text += f"; {self.missing:,} games of the baseline were not given"
        return text

    def document(self) -> dict[str, Any]:
        return attrs.asdict(self) | {"firsts": list(self.firsts)}


@attrs.define
class Tally:
    """The summary as the comparisons come (a million games are never held at once)."""

    recorded: int
    """Games in the baseline."""
    games: int = 0
    changed: int = 0
    new: int = 0
    other: int = 0
    firsts: set[int] = attrs.field(factory=set)
    met: set[bytes] = attrs.field(factory=set)
    """The logs of the baseline the inputs held."""

    def add(self, comparison: Comparison) -> None:
        self.games += 1
        if comparison.before is not None:
            self.met.add(comparison.now.log_id)
        self.changed += comparison.changed
        self.new += comparison.status == NEW
        self.other += comparison.status == OTHER_LOG
        if comparison.changed and comparison.first is not None:
            self.firsts.add(comparison.first)

    def summary(self) -> Summary:
        return Summary(
            self.games,
            self.changed,
            self.new,
            self.other,
            tuple(sorted(self.firsts)),
            self.recorded - len(self.met),
        )


def regress(
    paths: Sequence[Path],
    baseline: Baseline,
    where: Where,
    progress: Callable[[int], None] = lambda n: None,
) -> Iterator[Comparison | sweep.Visited[Record]]:
    """Every game of the inputs as it replays now against ``baseline``, in input order: its
    comparison, or the game that could not be read (a Visited with its error)."""
    recorder = Recorder(moves=True, full=baseline.version == 1)
    for visited in sweep.sweep(paths, recorder, where, progress):
        if visited.error is not None or visited.result is None:
            yield visited
        else:
            yield compare(baseline, visited.result)
