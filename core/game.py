"""The Game protocol: what every game gives the engine and the tooling.

Core knows no game; games implement this protocol and are listed in ``tribes.games``.
A *viewer* is who looks at a state: a seat number, :data:`SPECTATOR` (no hidden information) or
:data:`EVERYTHING` (all of it, for debugging).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from tribes.core.events import Effect, Event, EventTable
from tribes.core.header import Header

SPECTATOR: None = None
EVERYTHING: Literal["all"] = "all"
Viewer = int | None | Literal["all"]


class Bot(Protocol):
    def choose(self, state: Any, moves: Sequence[Event]) -> Event:
        """One of ``moves`` (never empty), for the state's active seat."""


class BotFactory(Protocol):
    def __call__(self, game: Game, seed: int, seat: int) -> Bot: ...


class Game(Protocol):
    name: str
    title: str
    rules_version: int
    events: EventTable
    state_type: type
    min_seats: int
    max_seats: int
    bots: Mapping[str, BotFactory]

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """The options with defaults filled in; raises BadOption for any it does not take."""

    def setup(self, header: Header) -> Any:
        """The state before event 1: from the seed, or from ``header.position``."""

    def seats_of_position(self, position: Any) -> list[str]:
        """The seat names a position names (``new --position`` takes its seats from it); the
        position itself is checked by ``setup``, which raises BadPosition."""

    def to_move(self, state: Any) -> int | None:
        """The seat whose decision the game waits for; None when over."""

    def is_over(self, state: Any) -> bool: ...

    def legal_moves(self, state: Any) -> Sequence[Event]:
        """Every legal event now; empty exactly when the game is over."""

    def check(self, state: Any, event: Event) -> None:
        """Raises IllegalMove (naming the rule) unless ``event`` is legal in ``state``."""

    def apply(self, state: Any, event: Event) -> tuple[Any, tuple[Effect, ...]]:
        """The reducer: the next state and what the event caused. Pure and total: it checks the
        event and raises IllegalMove for an illegal one; it never mutates ``state``."""

    def parse_move(self, state: Any, text: str) -> Event:
        """An event from its notation; raises BadNotation."""

    def format_move(self, event: Event) -> str: ...

    def document(self, state: Any, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        """The ``show --json`` document: ``over``, ``to_move``, ``pending``, ``scores``,
        ``winners`` and the game's own fields, as ``viewer`` may see them."""

    def render(self, state: Any, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
        """The state as text for a terminal ``width`` columns wide, as ``viewer`` may see it."""
