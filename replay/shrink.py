"""``tribes shrink``: from a log where something happens, the smallest reproducer of it.

*Something happens* at an event: an expression over the ``show --json`` document and what the
event did (the bisect language, :mod:`tribes.replay.query`: ``len(VillageFounded) >= 2``)
becomes true there, or the event is refused naming a rule.
The reproducer is a position and the fewest events after it such that it still happens at the
last of them; then the position is simplified, one step at a time (a piece, a card, a hut, a
tile, some points fewer: what the game's :meth:`~tribes.core.game.Game.simpler` offers), each
step kept when the position stays valid and it still happens. Every game goes through the Game
contract alone. The same input gives the same output (no chance anywhere), and the work is
bounded by a number of tries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tribes.core.errors import IllegalMove, TribesError, UsageError
from tribes.core.events import Effect, Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec, logfile
from tribes.events.headers import header_data
from tribes.events.logfile import GameLog
from tribes.events.model import FORMAT_NAME
from tribes.replay.query import Query, at_step, step_query

MAX_TRIES = 2000
"""The default bound on tries (a try sets a position up and plays its events): seconds of work
for every game."""


class NothingToShrink(TribesError):
    """The log does not show what is asked for: nothing happens to reproduce."""


@attrs.frozen
class Target:
    """What must happen at the last event: ``until`` becomes true there (false at every earlier
    state), or the event is ``refused`` naming that rule."""

    until: str | None = None
    refused: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.until is None) == (self.refused is None):
            raise UsageError("shrink takes --until EXPR or --refused RULE (one of them)")

    @property
    def words(self) -> str:
        return (
            f"'{self.until}' holds"
            if self.until is not None
            else f"a refusal naming {self.refused}"
        )


@attrs.frozen
class Shrunk:
    """The reproducer: its log (the position in the header, the events after it) and how it was
    found."""

    log: GameLog
    at: int
    """The event of the original at which it happens."""
    after: int
    """The event of the original after which the position was taken."""
    tries: int
    simplified: int
    """Simplifications of the position kept."""
    bounded: bool
    """Whether ``max_tries`` ran out before no simplification was left to try."""

    @property
    def refused(self) -> bool:
        return "refused" in self.log.header.meta["shrink"]

    def document(self) -> dict[str, Any]:
        """The report of ``shrink --json`` (the log aside)."""
        return {
            "at": self.at,
            "after": self.after,
            "events": len(self.log.events),
            "tries": self.tries,
            "simplified": self.simplified,
            "bounded": self.bounded,
        }


Progress = Callable[[int], None]
"""Told how many more tries were made."""


def shrink(
    game: Game[Any],
    log: GameLog,
    target: Target,
    *,
    then: Sequence[Event] = (),
    max_tries: int = MAX_TRIES,
    progress: Progress = lambda n: None,
) -> Shrunk:
    """The smallest reproducer of ``target`` in ``log`` (followed by the events ``then``)."""
    if max_tries < 1:
        raise UsageError("--max-tries must be 1 or more")
    events = [*log.events, *then]
    trial = _Trial(game, log.header, target)
    at, states = trial.where(events)
    budget = _Budget(max_tries, progress)
    after, position = _fewest_events(game, log.header, trial, states, events[:at], budget)
    kept = events[after:at]
    simplified = 0
    while not budget.spent:
        better = _simpler(game, position, lambda p: trial.happens(p, kept), budget)
        if better is None:
            break
        position = better
        simplified += 1
    meta = {
        "shrink": {
            "log": logfile.log_digest(log).hex(),
            "at": at,
            "after": after,
            **({"until": target.until} if target.until is not None else {}),
            **({"refused": target.refused} if target.refused is not None else {}),
            **({"then": [game.format_move(e) for e in then]} if then else {}),
        }
    }
    head = attrs.evolve(log.header, position=codec.canonical(position), meta=meta)
    out = GameLog(header=head, events=tuple(kept))
    return Shrunk(out, at, after, budget.used, simplified, budget.spent)


def scenario_text(log: GameLog) -> str:
    """A log as a hand-written scenario (the JSON form without digest, commits and checkpoints):
    the form of a reproducer whose last event is refused, which no sealed log can hold."""
    head = codec.to_json(
        {
            "format": FORMAT_NAME,
            "version": logfile.FORMAT_VERSION,
            "header": header_data(log.header),
        }
    )
    lines = head.rstrip().removesuffix("}").rstrip()
    events = ",\n".join("    " + codec.event_json_line(e) for e in log.events)
    return lines + f',\n  "events": [\n{events}\n  ]\n}}\n'


# --- the parts ------------------------------------------------------------------------------------


class _Budget:
    def __init__(self, most: int, progress: Progress) -> None:
        self.most = most
        self.used = 0
        self.progress = progress

    @property
    def spent(self) -> bool:
        return self.used >= self.most

    def use(self) -> None:
        self.used += 1
        self.progress(1)


class _Trial:
    """Whether the target happens: in the original log (where) and from a position (happens)."""

    def __init__(self, game: Game[Any], header: Header, target: Target) -> None:
        self.game = game
        self.header = header
        self.target = target
        self.query: Query | None = None
        if target.until is not None:
            self.query = step_query(game, header, target.until)

    def holds(
        self,
        header: Header,
        index: int,
        state: Any,
        event: Event | None = None,
        before: Any = None,
        effects: Sequence[Effect] = (),
    ) -> bool:
        """Whether the expression holds at step ``index``: ``event``, played in ``before``,
        caused ``effects`` and led to ``state`` (the expression may name the effects)."""
        assert self.query is not None
        return self.query.holds(at_step(self.game, header, index, state, event, effects))

    def where(self, events: Sequence[Event]) -> tuple[int, list[Any]]:
        """The event of the original at which it happens, and the states before it."""
        game = self.game
        states = [game.setup(self.header)]
        if self.query is not None and self.holds(self.header, 0, states[0]):
            raise NothingToShrink(f"'{self.target.until}' holds at the start: no event makes it")
        for index, event in enumerate(events, start=1):
            try:
                state, effects = game.apply(states[-1], event)
            except IllegalMove as exc:
                if self.target.refused is None:
                    raise exc.at(game.format_move(event), index) from None
                if exc.rule != self.target.refused:
                    raise NothingToShrink(
                        f"event {index} ({game.format_move(event)}) is refused naming "
                        f"{exc.rule or 'no rule'}, not {self.target.refused}: {exc.reason}"
                    ) from None
                return index, states
            if self.query is not None and self.holds(
                self.header, index, state, event, states[-1], effects
            ):
                return index, states
            states.append(state)
        raise NothingToShrink(
            f"'{self.target.until}' never holds"
            if self.query is not None
            else "no event is refused (add the refused move with --then MOVE)"
        )

    def happens(self, position: Any, events: Sequence[Event]) -> bool:
        """Whether, from ``position``, ``events`` are legal (the last refused, for a refusal)
        and the expression holds after the last one only."""
        game = self.game
        header = attrs.evolve(self.header, position=position)
        try:
            state = game.setup(header)
        except TribesError:
            return False
        if self.query is not None and self.holds(header, 0, state):
            return False
        for index, event in enumerate(events, start=1):
            last = index == len(events)
            try:
                after, effects = game.apply(state, event)
            except IllegalMove as exc:
                return last and exc.rule == self.target.refused
            if (
                self.query is not None
                and self.holds(header, index, after, event, state, effects) != last
            ):
                return False
            state = after
        return self.query is not None


def _simpler(
    game: Game[Any], position: Any, happens: Callable[[Any], bool], budget: _Budget
) -> Any | None:
    """The first simpler position in which it still happens: one step simpler, else two steps
    at once (two tents that each keep a tie, say); None when there is none (or no try left)."""
    tried: set[str] = set()

    def first(candidates: Iterable[Any]) -> Any | None:
        for candidate in candidates:
            if budget.spent:
                return None
            key = codec.to_json(candidate, indent=None)
            if key in tried:
                continue
            tried.add(key)
            budget.use()
            if happens(candidate):
                return candidate
        return None

    steps = list(game.simpler(position))
    found = first(steps)
    if found is None:
        found = first(two for one in steps for two in game.simpler(one))
    return found


def _fewest_events(
    game: Game[Any],
    header: Header,
    trial: _Trial,
    states: list[Any],
    events: Sequence[Event],
    budget: _Budget,
) -> tuple[int, Any]:
    """The latest state whose position, followed by the events after it (up to the one at
    which it happens), still shows it: the position after ``after`` and ``after`` itself.

    A state that awaits a decision which only finishes the move before it
    (``Pending.finishes_move``: the order of Clans villages) is passed over: what happens there
    is that move's work (it founds the 12th and 13th villages; the order numbers them), so the
    reproducer starts before the move and holds both."""
    for after in range(len(states) - 1, -1, -1):
        pending = game.pending(states[after]) if after else None
        if pending is not None and pending.finishes_move:
            continue
        position = codec.canonical(game.position(states[after], header.seats))
        budget.use()
        if trial.happens(position, events[after:]):
            return after, position
        if budget.spent:
            break
    raise NothingToShrink(
        f"no position of the log reproduces it within {budget.most} tries (--max-tries)"
    )
