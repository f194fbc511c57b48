"""The engine: a game's states, event by event. Game-agnostic and pure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

import attrs

from tribes.core.errors import IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import Game, State
from tribes.core.header import Header
from tribes.core.reprs import fields_repr

S = TypeVar("S", bound=State)
"""The state type of the game played (declared here too: a Step is generic in it)."""


@attrs.frozen
class Step(Generic[S]):
    """The state after event ``index`` (0: the start), who made that event and what it caused."""

    index: int
    seat: int | None
    event: Event | None
    state: S
    effects: tuple[Effect, ...]

    __repr__ = fields_repr


def play(game: Game[S], state: S, event: Event, index: int) -> Step[S]:
    """Apply one event; an illegal one raises IllegalMove naming the move and its index."""
    seat = game.to_move(state)
    try:
        after, effects = game.apply(state, event)
    except IllegalMove as exc:
        raise exc.at(game.format_move(event), index) from None
    return Step(index, seat, event, after, effects)


def start(game: Game[S], header: Header) -> Step[S]:
    """Step 0: the state before event 1, with what setting it up caused."""
    state = game.setup(header)
    return Step(0, None, None, state, game.setup_effects(header, state))


def steps(game: Game[S], header: Header, events: Iterable[Event]) -> Iterator[Step[S]]:
    """Every step of a game, from its start; stops with IllegalMove at the first illegal event."""
    step: Step[S] = start(game, header)
    yield step
    state = step.state
    for index, event in enumerate(events, start=1):
        step = play(game, state, event, index)
        yield step
        state = step.state
