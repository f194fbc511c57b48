"""The Bonus Dice reducer: setup, legal moves, checks, apply, outcome (D2–D6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from tribes.core.errors import BadPosition, IllegalMove
from tribes.core.events import Effect, Event
from tribes.core.game import Outcome, Pending, highest
from tribes.core.header import Header
from tribes_dice.events import Banked, DieRolled, GameEnded, Rolled, Stopped, TurnLost
from tribes_dice.state import ROUNDS, TARGET, DiceState, from_chance, roll

ROLL, STOP = Rolled(), Stopped()


def setup(header: Header, options: Mapping[str, str]) -> DiceState:
    if header.position is not None:
        raise BadPosition("dice has no position form: a game starts from its seed")
    return from_chance(header.chance, len(header.seats))


def legal_moves(state: DiceState) -> Sequence[Event]:
    if state.over:
        return []
    return [ROLL, STOP] if state.turn_points else [ROLL]


def check(state: DiceState, event: Event) -> None:
    if state.over:
        raise IllegalMove("the game is over", rule="D5")
    if isinstance(event, Stopped) and not state.turn_points:
        raise IllegalMove("nothing to bank: roll first", rule="D4")
    if not isinstance(event, Rolled | Stopped):
        raise IllegalMove(f"'{type(event).__name__}' is no Bonus Dice move", rule="D3")


def apply(state: DiceState, event: Event) -> tuple[DiceState, tuple[Effect, ...]]:
    check(state, event)
    seat = state.to_move
    if isinstance(event, Rolled):
        face = roll(state)
        rolled = attrs.evolve(state, rolls=state.rolls + 1, last=face)
        if face != 1:
            return attrs.evolve(rolled, turn_points=state.turn_points + face), (
                DieRolled(seat=seat, face=face),
            )
        effects: tuple[Effect, ...] = (
            DieRolled(seat=seat, face=face),
            TurnLost(seat=seat, points=state.turn_points),
        )
        return _next_turn(rolled, effects)
    score = state.scores[seat] + state.turn_points
    scores = (*state.scores[:seat], score, *state.scores[seat + 1 :])
    banked = attrs.evolve(state, scores=scores)
    done = Banked(seat=seat, points=state.turn_points, score=score)
    if score >= TARGET:
        return _end(banked, (done,), f"{TARGET} points are banked")
    return _next_turn(banked, (done,))


def _next_turn(
    state: DiceState, effects: tuple[Effect, ...]
) -> tuple[DiceState, tuple[Effect, ...]]:
    seat = (state.to_move + 1) % len(state.scores)
    round_ = state.round + (seat == state.start)
    if round_ > ROUNDS:
        return _end(attrs.evolve(state, turn_points=0), effects, f"round {ROUNDS} is over")
    return attrs.evolve(state, to_move=seat, round=round_, turn_points=0), effects


def _end(
    state: DiceState, effects: tuple[Effect, ...], reason: str
) -> tuple[DiceState, tuple[Effect, ...]]:
    over = attrs.evolve(state, over=True, turn_points=0)
    ended = GameEnded(reason=reason, bonus=over.bonus, scores=outcome(over).scores)
    return over, (*effects, ended)


def outcome(state: DiceState) -> Outcome:
    """D6: the bonus cards count only at the end."""
    if not state.over:
        return Outcome(state.scores)
    final = tuple(s + b for s, b in zip(state.scores, state.bonus, strict=True))
    return Outcome(final, highest(final), ended="the game is over")


def pending(state: DiceState) -> Pending | None:
    return None
