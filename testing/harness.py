"""A game under test: states from a seed or a position, moves played by notation, refusals that
name their rule, and the ``show --json`` document of a state. Works for every registered game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from tribes import games
from tribes.core import views
from tribes.core.engine import Step, start
from tribes.core.errors import IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import EVERYTHING, Game, Viewer
from tribes.core.header import Header
from tribes.core.prng import Stream
from tribes.events import codec
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.replay.logs import Opened

T = TypeVar("T")


def effects_of(effects: Iterable[Any], kind: type[T]) -> list[T]:
    """The effects of type ``kind``, in order, among ``effects`` — or among every effect of
    ``effects`` when they are steps (:class:`tribes.core.engine.Step`, a replay's)."""
    found: list[T] = []
    for item in effects:
        for effect in item.effects if isinstance(item, Step) else (item,):
            if isinstance(effect, kind):
                found.append(effect)
    return found


def replay_log(path: Path | str) -> tuple[Opened, list[Step[Any]]]:
    """A log file (either form) read and replayed, every event and checkpoint checked: the log
    as opened and every step of it (0: the start)."""
    opened = logs.open_log(Path(path))
    return opened, logs.steps_of(opened.game, opened.log, path=str(path))


def document(
    game: Game[Any],
    state: Any,
    seats: Sequence[str],
    viewer: Viewer = EVERYTHING,
    *,
    events: int = 0,
) -> dict[str, Any]:
    """The ``tribes show --json`` document of ``state`` (after ``events`` events), as a script
    reads it: through JSON, so tuples are lists and keys are strings."""
    head = Header(game=game.name, rules_version=game.rules_version, seed=0, seats=tuple(seats))
    doc = views.step_document(game, head, events, state, viewer)
    result: dict[str, Any] = codec.from_json(codec.to_json(doc))
    return result


@attrs.frozen
class Played:
    """A game played move by move: its log (without checkpoints) and every step of it."""

    log: GameLog
    steps: tuple[Step[Any], ...]

    @property
    def states(self) -> list[Any]:
        return [s.state for s in self.steps]


class Harness:
    """One game, for tests: ``Harness("clans")`` or ``Harness(game)`` for a game object of one's
    own (which need not be registered)."""

    def __init__(self, game: Game[Any] | str) -> None:
        self.game: Game[Any] = games.get(game) if isinstance(game, str) else game

    def __repr__(self) -> str:
        return f"Harness({self.game.name!r})"

    # --- states -----------------------------------------------------------------------------

    def default_seats(self, count: int | None = None) -> tuple[str, ...]:
        """``count`` seat names (the game's fewest seats by default): ann, bob, cy, dee, eve, ..."""
        count = self.game.facts.min_seats if count is None else count
        names = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")
        return names[:count] if count <= len(names) else tuple(f"p{i + 1}" for i in range(count))

    def header(
        self,
        *,
        seats: Sequence[str] | None = None,
        seed: int = 0,
        position: Any = None,
        options: Mapping[str, str] | None = None,
    ) -> Header:
        """A header as written, unchecked (so that a test may hand ``setup`` a bad one); the seats
        of a position come from it unless given."""
        if seats is None:
            seats = (
                self.game.seats_of_position(position)
                if position is not None
                else self.default_seats()
            )
        options = dict(options or {})
        files = {  # a file an option names is carried in the header, as tribes new does
            o.name: Path(options[o.name]).read_text()
            for o in self.game.facts.options
            if o.takes == "PATH" and o.name in options
        }
        return Header(
            game=self.game.name,
            rules_version=self.game.rules_version,
            seed=seed,
            seats=tuple(seats),
            options=options,
            position=position,
            schema=self.game.events.versions(),
            files=files,
        )

    def from_seed(self, seed: int, seats: Sequence[str] | None = None, **options: str) -> Any:
        """The state before event 1 of a game from ``seed``."""
        return self.game.setup(self.header(seats=seats, seed=seed, options=options))

    def from_position(
        self, position: Any, *, seed: int = 0, seats: Sequence[str] | None = None, **options: str
    ) -> Any:
        """The state of a position document (the seats are the position's unless given)."""
        head = self.header(seats=seats, seed=seed, position=position, options=options)
        return self.game.setup(head)

    # --- moves ------------------------------------------------------------------------------

    def event(self, state: Any, move: str | Event) -> Event:
        """An event from its notation in ``state`` (an event is returned as it is)."""
        return self.game.parse_move(state, move) if isinstance(move, str) else move

    def play(self, state: Any, *moves: str | Event) -> tuple[Any, tuple[Effect, ...]]:
        """Play ``moves`` (notation or events) one after the other, each parsed against the state
        just before it and checked first; the last state and every effect, in order."""
        effects: list[Effect] = []
        for move in moves:
            event = self.event(state, move)
            self.game.check(state, event)
            state, more = self.game.apply(state, event)
            effects.extend(more)
        return state, tuple(effects)

    def refused(self, state: Any, move: str | Event, rule: str | None = None) -> IllegalMove:
        """The IllegalMove that ``check`` and ``apply`` both raise for ``move``, naming the same
        rule (``rule``, when given); the move is not among the legal moves either."""
        event = self.event(state, move)
        text = self.game.format_move(event)
        try:
            self.game.check(state, event)
        except IllegalMove as exc:
            checked = exc
        else:
            raise AssertionError(f"check accepted '{text}'")
        try:
            self.game.apply(state, event)
        except IllegalMove as exc:
            assert exc.rule == checked.rule, (text, exc.rule, checked.rule)  # noqa: PT017  a harness, not a test
        else:
            raise AssertionError(f"apply accepted '{text}'")
        assert event not in self.game.legal_moves(state), f"'{text}' is listed as legal"
        if rule is not None:
            assert checked.rule == rule, (
                f"'{text}' refused by {checked.rule}, not {rule}: {checked}"
            )
        return checked

    def moves(self, state: Any) -> list[str]:
        """The legal moves of ``state`` in notation, in the game's order."""
        return [self.game.format_move(m) for m in self.game.legal_moves(state)]

    def document(
        self, state: Any, seats: Sequence[str], viewer: Viewer = EVERYTHING, *, events: int = 0
    ) -> dict[str, Any]:
        """The ``tribes show --json`` document of ``state`` (see :func:`document`)."""
        return document(self.game, state, seats, viewer, events=events)

    # --- whole games ------------------------------------------------------------------------

    def random_game(
        self,
        seed: int,
        seats: int | Sequence[str] | None = None,
        picks: Iterable[int] | None = None,
        *,
        stream: str = "testing",
        **options: str,
    ) -> Played:
        """A legal game from ``seed``: at each step the move ``moves[pick % len(moves)]`` for the
        next of ``picks`` (by default picks drawn from the PRNG stream ``stream`` of the seed),
        until the game is over or the picks run out. ``seats`` is a count or the names."""
        names = seats if seats is None or not isinstance(seats, int) else self.default_seats(seats)
        head = self.header(seats=names, seed=seed, options=self.game.check_options(options))
        played = [start(self.game, head)]
        state = played[0].state
        draws = Stream(seed, stream)
        chosen = iter(picks) if picks is not None else None
        while moves := self.game.legal_moves(state):
            if chosen is None:
                pick = draws.below(len(moves))
            else:
                given = next(chosen, None)
                if given is None:
                    break
                pick = given
            event = moves[pick % len(moves)]
            seat = self.game.to_move(state)
            state, effects = self.game.apply(state, event)
            played.append(Step(len(played), seat, event, state, effects))
        events = tuple(s.event for s in played[1:] if s.event is not None)
        return Played(GameLog(header=head, events=events), tuple(played))
