"""What every game's state looks like to tools: the ``show --json`` document (the common keys
around the game's own fields) and a step in one line. Written once here for every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tribes.core.errors import UsageError
from tribes.core.header import Header
from tribes.core.movelist import MoveList

if TYPE_CHECKING:  # the Game contract builds its documents here: no import back at run time
    from tribes.core.engine import Step
    from tribes.core.game import Game, Pending, S, Viewer

COMMON_KEYS = ("seats", "over", "ended", "to_move", "pending", "scores", "winners")
"""The keys every game's document has, besides the game's own."""


def document(game: Game[S], state: S, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
    """The ``show --json`` document of a state: the common keys, then the game's own fields."""
    outcome = game.outcome(state)
    scores = game.visible_scores(state, viewer)
    to_move = game.to_move(state)
    return {
        "seats": list(seats),
        "over": game.is_over(state),
        "ended": outcome.ended,
        "to_move": None if to_move is None else seats[to_move],
        "pending": pending_document(game, state, seats, game.pending(state), viewer),
        "scores": {**dict(zip(seats, scores, strict=True)), **dict(outcome.others)},
        "winners": [seats[i] for i in outcome.winners],
        **game.fields(state, seats, viewer),
    }


def common_value(game: Game[S], state: S, seats: Sequence[str], viewer: Viewer, key: str) -> Any:
    """``document(game, state, seats, viewer)[key]`` for one of ``COMMON_KEYS``, without the
    rest of the document (an expression of ``find`` or ``hunt`` that reads only ``scores`` or
    ``over`` pays for no more: the game's own fields cost a hundred times as much)."""
    if key == "over":
        return game.is_over(state)
    if key == "seats":
        return list(seats)
    if key == "to_move":
        to_move = game.to_move(state)
        return None if to_move is None else seats[to_move]
    if key == "pending":
        return pending_document(game, state, seats, game.pending(state), viewer)
    if key == "scores":
        scores = game.visible_scores(state, viewer)
        return {**dict(zip(seats, scores, strict=True)), **dict(game.outcome(state).others)}
    outcome = game.outcome(state)
    return outcome.ended if key == "ended" else [seats[i] for i in outcome.winners]


def pending_document(
    game: Game[S],
    state: S,
    seats: Sequence[str],
    pending: Pending | None,
    viewer: Viewer = "all",
) -> dict[str, Any] | None:
    """A pending decision as plain data: who, what, the game's details, and every option in
    notation — null for a viewer the options would tell a secret (``Facts.private_moves``)."""
    if pending is None:
        return None
    return {
        "seat": seats[pending.seat],
        "decision": pending.decision,
        **pending.details,
        "options": legal_notation(game, state, viewer),
    }


def sees_moves(game: Game[S], state: S, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see the legal moves of ``state``: always, unless they give away
    what only the seat to move may know."""
    return not game.facts.private_moves or viewer == "all" or viewer == game.to_move(state)


def legal_notation(game: Game[S], state: S, viewer: Viewer = "all") -> list[str] | None:
    """The legal moves in notation, or None for a viewer who may not see them."""
    if not sees_moves(game, state, viewer):
        return None
    moves = game.legal_moves(state)
    if isinstance(moves, MoveList):
        return moves.notation(game.format_move)
    return [game.format_move(m) for m in moves]


def step_document(
    game: Game[S], header: Header, index: int, state: S, viewer: Viewer
) -> dict[str, Any]:
    """The document of the state after event ``index`` of a log, as ``tribes show --json``
    prints it."""
    return {"game": header.game, "events": index, **document(game, state, header.seats, viewer)}


def viewer_named(seats: Sequence[str], who: str | None) -> Viewer:
    """The viewer ``--as`` names: a seat, ``spectator`` or ``all`` (also when none is named)."""
    if who is None or who == "all":
        return "all"
    if who == "spectator":
        return None
    if who in seats:
        return list(seats).index(who)
    raise UsageError(f"--as '{who}' is no seat; use one of {', '.join(seats)}, spectator or all")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for one: "1 event", "2 events", "1 territory"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def printable(text: str) -> str:
    """``text`` as one printable line: control characters (ESC, C1 such as U+009B), format
    characters (U+202E, which turns text around) and lone surrogates escaped (``\\x1b``,
    ``\\u202e``), so that text from a file never drives the terminal or page it is shown in."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def seat_name(seats: Sequence[str], step: Step[Any]) -> str:
    return seats[step.seat] if step.seat is not None else "-"


def notation(game: Game[Any], step: Step[Any]) -> str:
    """The step's event in notation ("start" for the start)."""
    return "start" if step.event is None else game.format_move(step.event)


def effects_text(
    seats: Sequence[str], step: Step[Any], joiner: str = "; ", viewer: Viewer = "all"
) -> str:
    """The step's effects as ``viewer`` may see them (default: everything)."""
    return joiner.join(e.describe_for(seats, viewer) for e in step.effects)


def step_line(
    game: Game[Any], seats: Sequence[str], step: Step[Any], width: int = 14, viewer: Viewer = "all"
) -> str:
    """A step as one line of ``tribes log``: index, seat, move (padded to ``width``), effects
    as ``viewer`` may see them."""
    return (
        f"{step.index:>4}  {seat_name(seats, step):<8} {notation(game, step):<{width}} "
        f"{effects_text(seats, step, viewer=viewer)}"
    ).rstrip()


def describe(game: Game[Any], seats: Sequence[str], step: Step[Any], viewer: Viewer = "all") -> str:
    """A step as a sentence: ``12: ann 12-13 — village 3 founded ...``, its effects as
    ``viewer`` may see them (default: everything)."""
    effects = effects_text(seats, step, viewer=viewer)
    line = f"{step.index}: {seat_name(seats, step)} {notation(game, step)}"
    return line + (f" — {effects}" if effects else "")
