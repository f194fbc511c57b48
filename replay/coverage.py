"""``tribes coverage``: which rules of a game many games applied in a way that mattered, and which
never happened — so that a fixture folder or a simulated corpus can be judged.

A game says what its events and effects show through its event table (the Game contract's
``events``): each event and effect type names the rule ids it applies (``RULES``), some only when
its fields meet a condition in the bisect language (``WHEN``: the 12th village alone shows C16),
and the table lists the rule ids that no event can show (``uncounted``), each with the reason.
Every rule id of the game's rules (``tribes rules GAME``) is one or the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from tribes.core import rulebook
from tribes.core.errors import GameOver, IllegalMove, UsageError
from tribes.core.game import Game
from tribes.events import codec
from tribes.events.logfile import GameLog
from tribes.replay.consistency import Answer, Watch
from tribes.replay.query import Query, parse


@attrs.frozen
class Applied:
    """One game: the events (0: the setup) that applied each rule id, counted once an event."""

    game: str
    events: Mapping[str, int]
    steps: int
    rules: Answer | None = None
    """What the running rules say of an intact log written under others (None: consistent)."""


def shown_rules(
    kind: type, fields: Any, conditions: dict[tuple[type, str], Query]
) -> Iterable[str]:
    """The rule ids an event or effect of ``kind`` with ``fields`` shows applied."""
    when = getattr(kind, "WHEN", {})
    for rule in getattr(kind, "RULES", ()):
        if rule not in when:
            yield rule
            continue
        key = (kind, rule)
        query = conditions.get(key)
        if query is None:
            query = conditions[key] = parse(when[rule])
        if query.holds(fields()):
            yield rule


@attrs.define
class Coverer:
    """The visit of ``coverage``: which rule ids each event of a game applied."""

    conditions: dict[tuple[type, str], Query] = attrs.field(factory=dict, init=False, repr=False)

    def __call__(self, name: str, game: Game[Any], log: GameLog) -> Applied:
        header = log.header
        state = game.setup(header)
        watch = Watch(game, log)
        watch.at(0, state)
        counts: dict[str, int] = {}
        self._count(counts, None, game.setup_effects(header, state))
        for index, event in enumerate(log.events, start=1):
            try:
                state, effects = game.apply(state, event)
            except IllegalMove as exc:
                if watch.refuse(
                    exc.reason,
                    exc.rule,
                    game.format_move(event),
                    index,
                    ended=isinstance(exc, GameOver),
                ):
                    break
                raise exc.at(game.format_move(event), index) from None
            watch.at(index, state)
            self._count(counts, event, effects)
        return Applied(game.name, counts, len(log.events), watch.answer)

    def _count(self, counts: dict[str, int], event: Any, effects: Iterable[Any]) -> None:
        rules: set[str] = set()
        for item in (event, *effects) if event is not None else effects:
            rules.update(
                shown_rules(type(item), lambda i=item: codec.unstructure(i), self.conditions)
            )
        for rule in rules:
            counts[rule] = counts.get(rule, 0) + 1


@attrs.frozen
class RuleCount:
    id: str
    games: int
    events: int
    why_not: str | None = None
    """Why the rule is not countable (None: it is)."""

    def line(self) -> str:
        if self.why_not is not None:
            return f"  {self.id:<4} not countable: {self.why_not}"
        if not self.games:
            return f"  {self.id:<4} never happened"
        return f"  {self.id:<4} {_count(self.games, 'game')}, {_count(self.events, 'event')}"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


@attrs.define
class Coverage:
    """The rules of one game over the games read."""

    game: Game[Any]
    games: int = 0
    steps: int = 0
    by_rule: dict[str, list[int]] = attrs.field(factory=dict)
    """Rule id -> [games, events]."""

    def add(self, applied: Applied) -> None:
        self.games += 1
        self.steps += applied.steps
        for rule, events in applied.events.items():
            seen = self.by_rule.setdefault(rule, [0, 0])
            seen[0] += 1
            seen[1] += events

    def rules(self) -> list[RuleCount]:
        uncounted = self.game.events.uncounted
        out = []
        for rule in rule_ids(self.game):
            games, events = self.by_rule.get(rule, (0, 0))
            out.append(RuleCount(rule, games, events, uncounted.get(rule)))
        return out

    def never(self) -> list[str]:
        return [r.id for r in self.rules() if r.why_not is None and not r.games]

    def lines(self) -> list[str]:
        rules = self.rules()
        countable = [r for r in rules if r.why_not is None]
        happened = sum(1 for r in countable if r.games)
        head = (
            f"{self.game.name}: {_count(self.games, 'game')}, {_count(self.steps, 'event')}; "
            f"{happened} of {len(countable)} countable rules happened"
        )
        never = self.never()
        tail = [f"never happened: {', '.join(never)}"] if never else []
        return [head, *(r.line() for r in rules), *tail]

    def document(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "games": self.games,
            "events": self.steps,
            "rules": [
                {"id": r.id, "games": r.games, "events": r.events, "countable": r.why_not is None}
                | ({"why": r.why_not} if r.why_not is not None else {})
                for r in self.rules()
            ],
            "never": self.never(),
        }


def rule_ids(game: Game[Any]) -> list[str]:
    """The rule ids of ``game``'s rules, in order; a game without shipped rules has none to
    count (a usage error)."""
    try:
        book = rulebook.rulebook(game)
    except UsageError as exc:
        raise UsageError(f"{exc.message}: no rule ids to count") from None
    return [r.id for r in book.rules]
