"""``tribes regress``: each game as it replays now against its baseline record
(:mod:`tribes.replay.baseline`): unchanged, or the first event that differs — what it did before
and what it does now, in the game's words — the outcomes before and after and the first event
now illegal; and a summary a person can decide from: games changed, winners changed, games now
illegal by rule, score shifts by seat, length changes. The games come as a stream and are met
with their records as a stream (:class:`tribes.replay.baseline_file.Matcher`): nothing grows with
the number of games but the counts."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from tribes.core.errors import IllegalMove
from tribes.replay import sweep
from tribes.replay.baseline import MAX_TEXT, WIDTH, Record, Recorder, Words, plain
from tribes.replay.baseline_file import BadBaseline, Baseline, Matcher
from tribes.replay.parallel import Where

UNCHANGED = "unchanged"
CHANGED = "changed"
NEW = "new"
OTHER_LOG = "other-log"


@attrs.frozen
class Difference:
    """The first event that differs, in the game's words: the effects recorded (None: the
    baseline holds no words, version 1 or 2; ``()``: the event moved no score then, so none were
    recorded) and now (the effects' texts, or the refusal when it is now illegal)."""

    event: int
    move: str
    before: tuple[str, ...] | None
    now: tuple[str, ...]

    def text(self) -> str:
        before, now = _trimmed(self.before, self.now)
        if self.before is not None and self.before == self.now:
            return f"the same effects ({_said(self.now)}), another state after it"
        if before is None:
            return f"(not recorded: a baseline of version 1 or 2) → {_said(now)}"
        if before and len(before) == len(now):
            return "; ".join(_changed(a, b) for a, b in zip(before, now, strict=True) if a != b)
        return f"{_said(before, 'moved no score')} → {_said(now)}"

    def document(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "move": self.move,
            "before": None if self.before is None else list(self.before),
            "now": list(self.now),
        }


def _trimmed(
    before: tuple[str, ...] | None, now: tuple[str, ...]
) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """Both sides without the effects they share at their start and end."""
    if not before or not now or before == now:
        return before, now
    head = 0
    while head < min(len(before), len(now)) and before[head] == now[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(now)) - head and before[-1 - tail] == now[-1 - tail]:
        tail += 1
    return before[head : len(before) - tail], now[head : len(now) - tail]


def _changed(before: str, now: str) -> str:
    """One effect's words before and now, what they share said once: ``village 12 at 57
    (epoch 5, 2 red): red +7 → red +6`` (from ``...: red +7; chip to p1`` and ``...: red +6;
    chip to p1``). Each clause (between commas and semicolons) that changed is shown on its
    own, ``game over: p1 (green) 44 → 43, p2 (blue) 45 → 44``, so that no clause reads as part
    of another's change."""
    label, before, now = _label(before, now)
    clauses_before, clauses_now = _clauses(before), _clauses(now)
    if len(clauses_before) == len(clauses_now):
        pairs = zip(clauses_before, clauses_now, strict=True)
        shown = ", ".join(_clause(a, b) for a, b in pairs if a.rstrip(",;") != b.rstrip(",;"))
    else:
        shown = f"{before.rstrip(';,')} → {now.rstrip(';,')}"
    return f"{label} {shown}" if label else shown


_CLAUSES = re.compile(r"(?<=[,;]) ")
"""Between two clauses of an effect's words: after a comma or a semicolon."""


def _clauses(text: str) -> list[str]:
    """The clauses of an effect's words; a list of names that share what follows them is one
    clause with it (``red, blue, black +8``: all three scored 8)."""
    out: list[str] = []
    names = ""
    for part in _CLAUSES.split(text):
        if " " not in part and part.endswith(","):
            names += part + " "
        else:
            out.append(names + part)
            names = ""
    if names:
        out.append(names.rstrip())
    return out


def _label(before: str, now: str) -> tuple[str, str, str]:
    """What both texts share up to their last shared ``: `` (what the effect is about), and
    the rest of each."""
    head = 0
    while head < min(len(before), len(now)) and before[head] == now[head]:
        head += 1
    cut = before.rfind(": ", 0, head)
    if cut < 0 or cut + 2 > head:
        return "", before, now
    return before[: cut + 1], before[cut + 2 :], now[cut + 2 :]


def _clause(before: str, now: str) -> str:
    """One clause before and now by words, the words they share at the start said once (but
    the one just before the change, a seat's name, said on both sides: ``red +7 → red +6``)."""
    words_before, words_now = before.rstrip(",;").split(" "), now.rstrip(",;").split(" ")
    shortest = min(len(words_before), len(words_now))
    head = 0
    while head < shortest and words_before[head] == words_now[head]:
        head += 1
    tail = 0
    while tail < shortest - head and words_before[-1 - tail] == words_now[-1 - tail]:
        tail += 1
    start = head
    if head > 0 and not words_before[head - 1].endswith((":", ",", ";", ")")):
        start = head - 1
    if start > 0 and words_before[start - 1].endswith(","):
        start = 0  # names that share the change: all of them, on both sides
    kept = " ".join(words_before[:start])
    shown = (
        f"{' '.join(words_before[start : len(words_before) - tail])} → "
        f"{' '.join(words_now[start : len(words_now) - tail])}"
    )
    return f"{kept} {shown}" if kept else shown


def _said(texts: tuple[str, ...], empty: str = "no effect") -> str:
    return "; ".join(texts) if texts else empty


@attrs.frozen
class Comparison:
    """One game now against its record: ``status`` one of UNCHANGED, CHANGED, NEW (not in the
    baseline), OTHER_LOG (the baseline recorded another log under that name)."""

    name: str
    status: str
    now: Record
    before: Record | None = None
    first: int | None = None
    """The first step whose state or words differ (0: the start; None: only the outcome)."""
    difference: Difference | None = None
    notes: tuple[str, ...] = ()
    illegal_move: str | None = None
    """The first event now illegal, in notation."""

    @property
    def changed(self) -> bool:
        return self.status != UNCHANGED

    @property
    def winners_changed(self) -> bool:
        before, now = self.before, self.now
        return (
            self.status == CHANGED
            and before is not None
            and now.illegal is None
            and (before.over, before.winners) != (now.over, now.winners)
        )

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
        seats = self.now.seats
        return (
            f"CHANGED  {self.name}: {self._where()}; outcome before: {_outcome(self.before, seats)}"
            f", now: {_outcome(self.now, seats)}{self._illegal()}{self._length()}{notes}"
        )

    def _where(self) -> str:
        if self.first is None:
            return "the state after every event is the same; only the outcome differs"
        if self.first == 0:
            return "the start differs (the setup changed)"
        assert self.difference is not None
        return f"first difference at event {self.first} ({self.move}): {self.difference.text()}"

    @property
    def move(self) -> str | None:
        return None if self.difference is None else self.difference.move

    def _illegal(self) -> str:
        if self.now.illegal is None:
            return ""
        index, reason, rule = self.now.illegal
        return f"; event {index} ({self.illegal_move}) is now illegal: {_reason(reason, rule)}"

    def _length(self) -> str:
        assert self.before is not None
        if self.before.steps == self.now.steps:
            return ""
        return f"; {self.now.steps - 1} events replay, {self.before.steps - 1} did"

    def document(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.name, "status": self.status}
        if self.status == CHANGED and self.before is not None:
            out["first_difference"] = self.first
            out["move"] = self.move
            out["difference"] = None if self.difference is None else self.difference.document()
            out["before"] = _outcome_data(self.before, self.now.seats)
            out["now"] = _outcome_data(self.now, self.now.seats)
            out["winners_changed"] = self.winners_changed
            out["length"] = {"before": self.before.steps - 1, "now": self.now.steps - 1}
            illegal = self.now.illegal
            out["illegal"] = (
                None
                if illegal is None
                else {
                    "event": illegal[0],
                    "move": self.illegal_move,
                    "reason": illegal[1],
                    "rule": illegal[2],
                }
            )
        out["notes"] = list(self.notes)
        return out


def _reason(reason: str, rule: str | None) -> str:
    return reason + (f" ({rule})" if rule else "")


def compare(
    before: Record | None,
    other: bool,
    now: Record,
    baseline: Path,
    replay: Callable[[str, int], tuple[list[str], list[tuple[str, ...]]]] | None = None,
) -> Comparison:
    """``now`` (a game as it replays today, with its moves and words) against ``before``, its
    record in the baseline at ``baseline`` (None: the baseline has none; ``other``: it has
    another log under this name); ``replay(name, n)`` gives the moves and effects' texts of its
    first n events, for a changed game (:func:`replayed`). A record of another game, or of another number of seats, is
    the baseline's fault: BadBaseline."""
    notes = _versions(before, now)
    if before is None:
        return Comparison(now.name, OTHER_LOG if other else NEW, now, notes=notes)
    if before.game != now.game:
        raise BadBaseline(
            f"baseline {baseline}: its record of {now.name} is of {before.game!r}, but the log "
            f"is a {now.game} game: a baseline of another game"
        )
    if len(before.scores) != len(now.seats):
        raise BadBaseline(
            f"baseline {baseline}: its record of {now.name} has {len(before.scores)} seats, "
            f"the log {len(now.seats)}"
        )
    first = _first_step(before, now)
    said = _first_words(before.words, now.words)
    if said is not None and (first is None or said < first):
        first = said
    outcome_moved = (before.over, before.winners, before.scores) != (
        now.over,
        now.winners,
        now.scores,
    )
    if first is None and not outcome_moved and now.illegal is None:
        return Comparison(now.name, UNCHANGED, now, before, notes=notes)
    difference = None
    illegal_move = None
    if first or now.illegal is not None:
        upto = max(first or 0, now.illegal[0] if now.illegal else 0)
        moves, texts = (replay or replayed)(now.name, upto)
        if first:
            effects = texts[first - 1] if first <= len(texts) else ()
            if now.illegal is not None and now.illegal[0] == first:
                effects = (f"illegal: {_reason(now.illegal[1], now.illegal[2])}",)
            difference = Difference(first, moves[first - 1], _words_at(before, first), effects)
        if now.illegal is not None:
            illegal_move = moves[now.illegal[0] - 1]
    return Comparison(
        now.name, CHANGED, now, before, first, difference, notes, illegal_move=illegal_move
    )


def replayed(name: str, upto: int) -> tuple[list[str], list[tuple[str, ...]]]:
    """The moves and the effects' texts of the first ``upto`` events of the game ``name``
    replayed again now (only a changed game is: what travels back from the workers stays small).
    The texts stop at an event the rules refuse."""
    from tribes.replay import logs  # noqa: PLC0415  start-up: only for a changed game, in its worker

    opened = logs.open_log(Path(name))
    game, log = opened.game, opened.log
    seats = log.header.seats
    state = game.setup(log.header)
    moves = [game.format_move(event) for event in log.events[:upto]]
    texts: list[tuple[str, ...]] = []
    for event in log.events[:upto]:
        try:
            state, effects = game.apply(state, event)
        except IllegalMove:
            break
        texts.append(tuple(plain(e.describe(seats))[:MAX_TEXT] for e in effects))
    return moves, texts


def _first_step(before: Record, now: Record) -> int | None:
    common = min(before.steps, now.steps)
    for i in range(common):
        if before.digests[i * WIDTH : (i + 1) * WIDTH] != now.digests[i * WIDTH : (i + 1) * WIDTH]:
            return i
    if before.steps != now.steps:
        return common  # the replay stopped early: its first missing state is the difference
    return None


def _first_words(before: Words | None, now: Words | None) -> int | None:
    """The first event whose recorded words differ (None: the same, or none recorded)."""
    if before is None or now is None:
        return None
    a, b = dict(before), dict(now)
    return next((e for e in sorted(a.keys() | b.keys()) if a.get(e) != b.get(e)), None)


def _words_at(record: Record, event: int) -> tuple[str, ...] | None:
    if record.words is None:
        return None
    return dict(record.words).get(event, ())


def _versions(before: Record | None, now: Record) -> tuple[str, ...]:
    """What a game's line says of rules versions: the header's and the baseline's, in one note
    when they name the same version."""
    if before is not None and before.rules_version == now.header_rules != now.rules_version:
        both = (
            f"its header and the baseline name {now.game} rules version {now.header_rules}, "
            f"this tribes plays version {now.rules_version}"
        )
        return (both,)
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
    return seats[i] if 0 <= i < len(seats) else f"seat {i + 1}"


def regress(
    paths: Sequence[Path],
    baseline: Baseline,
    where: Where,
    progress: Callable[[int], None] = lambda n: None,
    missing: Callable[[int], None] = lambda n: None,
) -> Iterator[Comparison | sweep.Visited[Record]]:
    """Every game of the inputs as it replays now against ``baseline``, in input order: its
    comparison, or the game that could not be read (a Visited with its error); at the end
    ``missing`` told how many games of the baseline no input held. A stream both ways."""
    with Matcher(baseline) as matcher:
        recorder = Recorder(full=baseline.version == 1)
        for visited in sweep.sweep(paths, recorder, where, progress):
            now = visited.result
            if visited.error is not None or now is None:
                yield visited
                continue
            before, other = matcher.find(now.log_id, now.name)
            yield compare(before, other, now, baseline.path)
        missing(matcher.missing())
